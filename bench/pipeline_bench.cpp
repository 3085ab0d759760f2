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

// A kernel of 20,000 functions of 0x100 bytes each: realistic lookup depth. The ones a failing
// bpf(BPF_MAP_CREATE) session shows carry their real names.
enum RealFunc : int {
  kBpfProg = 1000,  // the tracer's own program: filtered out of the stack
  kFtraceTrampoline = 2000,
  kArrayMapAllocCheck = 4000,
  kMapCreate = 6000,
  kSysBpf = 8000,
  kX64SysBpf = 10000,
  kX64SysCall = 12000,
  kDoSyscall64 = 14000,
  kEntrySyscall = 16000,
};

const char* real_name(int i) {
  switch (i) {
    case kBpfProg: return "bpf_prog_0123456789abcdef_rs_entry";
    case kFtraceTrampoline: return "ftrace_trampoline";
    case kArrayMapAllocCheck: return "array_map_alloc_check";
    case kMapCreate: return "map_create";
    case kSysBpf: return "__sys_bpf";
    case kX64SysBpf: return "__x64_sys_bpf";
    case kX64SysCall: return "x64_sys_call";
    case kDoSyscall64: return "do_syscall_64";
    case kEntrySyscall: return "entry_SYSCALL_64_after_hwframe";
    default: return nullptr;
  }
}

std::string synthetic_kallsyms() {
  std::string text;
  char line[96];
  for (int i = 0; i < 20000; ++i) {
    const char* name = real_name(i);
    if (name)
      std::snprintf(line, sizeof(line), "%llx T %s\n", (unsigned long long)(kBase + i * 0x100),
                    name);
    else
      std::snprintf(line, sizeof(line), "%llx T func_%05d\n",
                    (unsigned long long)(kBase + i * 0x100), i);
    text += line;
  }
  return text;
}

uint64_t kaddr(int func, uint64_t off) { return kBase + uint64_t(func) * 0x100 + off; }

// The traced functions of -e '*sys_bpf' -a 'array_map_alloc*' that the chain passes through.
FuncTable traced_funcs() {
  FuncTable funcs(4);
  const char* names[] = {"__x64_sys_bpf", "__sys_bpf", "map_create", "array_map_alloc_check"};
  for (int i = 0; i < 4; ++i) {
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

// The records BPF emits for one failing bpf(BPF_MAP_CREATE) call: a four-level chain whose
// innermost call has no frame of its own, an eight-frame kernel stack with two frames of the
// tracer's machinery.
std::vector<std::vector<char>> session_records(uint64_t sid) {
  std::vector<rs_frame> frames{
      {0, 0, 0, 427000, -22}, {1, 1, 0, 218000, -22}, {2, 2, 0, 30000, -22}, {3, 3, 0, 5000, -22}};
  std::vector<uint64_t> kstack{kaddr(kBpfProg, 0x4e),     kaddr(kFtraceTrampoline, 0x9b),
                               kaddr(kMapCreate, 0x20),   kaddr(kSysBpf, 0x8c),
                               kaddr(kX64SysBpf, 0x1e),   kaddr(kX64SysCall, 0x5d),
                               kaddr(kDoSyscall64, 0x87), kaddr(kEntrySyscall, 0x76)};
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
        std::string text;
        append_session(text, *s, ctx, 0);
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
    SessionPrinter printer(
        [&](const Session& s, std::string& text) { append_session(text, s, ctx, 0); }, out,
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
    for (const auto& rec : records)
      benchmark::DoNotOptimize(assembler.consume(rec.data(), rec.size()));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_AssembleOnly);

// Symbolization alone (kallsyms, no DWARF: what the test VMs use): the four kernel frames the
// chain passes through.
void BM_SymbolizeKsym(benchmark::State& state) {
  Kallsyms ksyms = Kallsyms::parse_text(synthetic_kallsyms());
  KsymSymbolizer symbolizer(ksyms);
  const uint64_t addrs[] = {kaddr(kMapCreate, 0x20), kaddr(kSysBpf, 0x8c), kaddr(kX64SysBpf, 0x1e),
                            kaddr(kDoSyscall64, 0x87)};
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
