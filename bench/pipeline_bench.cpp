// User-space cost per reported session: ring buffer records -> assembled Session -> text. Under a
// flood of failing syscalls this is what decides whether the consumer keeps up with the kernel.
#include <benchmark/benchmark.h>

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "events/session_assembler.h"
#include "format/format_cache.h"
#include "format/session_view.h"
#include "output/output_sink.h"
#include "output/session_printer.h"
#include "symbolize/ksym_symbolizer.h"
#include "util/owned_fd.h"

namespace retsnoop {
namespace {

constexpr uint64_t kBase = 0xffffffff81000000ull;

// A kernel of 20,000 functions of 0x100 bytes each: realistic lookup depth.
std::string synthetic_kallsyms() {
  std::string text;
  char line[64];
  for (int i = 0; i < 20000; ++i) {
    std::snprintf(line, sizeof(line), "%llx T func_%05d\n", (unsigned long long)(kBase + i * 0x100), i);
    text += line;
  }
  return text;
}

FuncTable traced_funcs() {
  FuncTable funcs(3);
  const char* names[] = {"func_00010", "func_00020", "func_00030"};
  for (int i = 0; i < 3; ++i) {
    funcs[i].name = names[i];
    funcs[i].ret = RetKind::Int32;
  }
  return funcs;
}

template <typename T>
std::vector<char> part(uint32_t type, uint64_t sid, const std::vector<T>& items) {
  rs_part_hdr hdr{type, static_cast<uint32_t>(items.size()), sid};
  std::vector<char> buf(sizeof(hdr) + items.size() * sizeof(T));
  std::memcpy(buf.data(), &hdr, sizeof(hdr));
  std::memcpy(buf.data() + sizeof(hdr), items.data(), items.size() * sizeof(T));
  return buf;
}

// The records BPF emits for one failing bpf() call traced at three levels.
std::vector<std::vector<char>> session_records(uint64_t sid) {
  std::vector<rs_frame> frames{{0, 0, 0, 73000, -22}, {1, 1, 0, 70000, -22}, {2, 2, 0, 5000, -22}};
  std::vector<uint64_t> kstack{kBase + 20 * 0x100 + 0x38, kBase + 10 * 0x100 + 0x1a,
                               kBase + 5 * 0x100 + 0x35, kBase + 1 * 0x100 + 0x63};
  rs_session_rec hdr{};
  hdr.type = RS_REC_SESSION;
  hdr.flags = RS_SESS_ERROR;
  hdr.session_id = sid;
  std::strcpy(hdr.task_comm, "simfail");
  std::strcpy(hdr.proc_comm, "simfail");
  hdr.depth = frames.size();
  hdr.kstack_cnt = kstack.size();
  std::vector<char> h(sizeof(hdr));
  std::memcpy(h.data(), &hdr, sizeof(hdr));
  return {part(RS_REC_FRAMES, sid, frames), part(RS_REC_KSTACK, sid, kstack), h};
}

// What formatting needs, as the printer has it in the test VMs: kallsyms only, a frame cache.
struct Formatting {
  Formatting() { ctx.cache = &cache; }

  Kallsyms ksyms = Kallsyms::parse_text(synthetic_kallsyms());
  KsymSymbolizer symbolizer{ksyms};
  FuncTable funcs = traced_funcs();
  FormatOptions opts{.symb = SymbLevel::None};
  FormatCache cache;
  FormatContext ctx{funcs, symbolizer, opts};
};

void BM_AssembleAndFormat(benchmark::State& state) {
  Formatting fmt;
  const FormatContext& ctx = fmt.ctx;
  SessionAssembler assembler;
  auto records = session_records(1);
  size_t bytes = 0;
  for (auto _ : state) {
    for (const auto& rec : records) {
      if (auto s = assembler.consume(rec.data(), rec.size())) {
        std::string text = format_session(*s, ctx, 0);
        bytes += text.size();
        benchmark::DoNotOptimize(text.data());
      }
    }
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["bytes/session"] = double(bytes) / state.iterations();
}
BENCHMARK(BM_AssembleAndFormat);

// The whole consumer as retsnoop runs it: the reader's thread assembles each session and queues
// it, the printer thread formats it and writes the batch (to /dev/null). Per session, both
// threads' work together: what a flood costs when both share one CPU.
void BM_AssembleQueueAndPrint(benchmark::State& state) {
  Formatting fmt;
  const FormatContext& ctx = fmt.ctx;
  SessionAssembler assembler;
  auto records = session_records(1);
  OwnedFd null(open("/dev/null", O_WRONLY | O_CLOEXEC));
  OutputSink out(null.get());
  uint64_t pushed = 0;
  // The receiver hands over what one poll of the ring buffer brought: a wake-up's worth.
  constexpr size_t kPollBatch = 100;
  std::vector<Session> batch;
  {
    SessionPrinter printer([&](const Session& s) { return format_session(s, ctx, 0); }, out,
                           size_t(1) << 30, SessionPrinter::kFlushInterval, nullptr);
    for (auto _ : state) {
      for (const auto& rec : records) {
        if (auto s = assembler.consume(rec.data(), rec.size())) batch.push_back(std::move(*s));
      }
      if (batch.size() == kPollBatch) {
        pushed += printer.push(std::span<Session>(batch));
        batch.clear();
      }
    }
    pushed += printer.push(std::span<Session>(batch));
    printer.finish(SessionPrinter::Clock::now() + std::chrono::seconds(60));
    if (printer.printed() != pushed) state.SkipWithError("sessions left unprinted");
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_AssembleQueueAndPrint)->UseRealTime();

void BM_AssembleOnly(benchmark::State& state) {
  SessionAssembler assembler;
  auto records = session_records(1);
  for (auto _ : state) {
    for (const auto& rec : records) benchmark::DoNotOptimize(assembler.consume(rec.data(), rec.size()));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_AssembleOnly);

// Symbolization alone (kallsyms, no DWARF: what the test VMs use): the four kernel frames of
// the session above.
void BM_SymbolizeKsym(benchmark::State& state) {
  Kallsyms ksyms = Kallsyms::parse_text(synthetic_kallsyms());
  KsymSymbolizer symbolizer(ksyms);
  const uint64_t addrs[] = {kBase + 20 * 0x100 + 0x38, kBase + 10 * 0x100 + 0x1a,
                            kBase + 5 * 0x100 + 0x35, kBase + 1 * 0x100 + 0x63};
  for (auto _ : state)
    for (uint64_t addr : addrs) benchmark::DoNotOptimize(symbolizer.symbolize(addr, true));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_SymbolizeKsym);

// The write to the output: one write() per session (a terminal), or the batch the printer
// collects within its flush interval (a file or pipe), here 64 sessions' text per write(). Into a
// memory file, so that no disk is measured.
void write_sessions(benchmark::State& state, size_t per_write) {
  int fd = memfd_create("pipeline_bench", MFD_CLOEXEC);
  const std::string text(244, 'x');  // a formatted session, as BM_AssembleAndFormat makes it
  std::string batch;
  for (auto _ : state) {
    batch += text;
    if (batch.size() >= per_write * text.size()) {
      if (write(fd, batch.data(), batch.size()) < 0) state.SkipWithError("write failed");
      batch.clear();
      if (lseek(fd, 0, SEEK_SET) < 0) state.SkipWithError("lseek failed");
    }
  }
  state.SetItemsProcessed(state.iterations());
  close(fd);
}

void BM_WritePerSession(benchmark::State& state) { write_sessions(state, 1); }
BENCHMARK(BM_WritePerSession);

void BM_WriteBatched(benchmark::State& state) { write_sessions(state, 64); }
BENCHMARK(BM_WriteBatched);

}  // namespace
}  // namespace retsnoop

BENCHMARK_MAIN();
