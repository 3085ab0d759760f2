// Symbolizer and ':path' glob costs on a real vmlinux with DWARF (env RETSNOOP_VMLINUX; every
// benchmark is skipped without it). Kallsyms is synthesized from the image's own symbol table
// with a fake KASLR offset, so any vmlinux works, not only the running kernel's.
//
// "Cold" iterations open the vmlinux afresh (no libdw state, no index cache); the page cache is
// whatever the caller left (bench/symbolize.sh drops it first). "Warm" ones reuse the state a
// first run leaves: the per-address cache, or the on-disk CU index.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <sstream>

#include "discovery/cu_globs.h"
#include "discovery/kallsyms.h"
#include "discovery/vmlinux.h"
#include "symbolize/dwarf_symbolizer.h"

namespace retsnoop {
namespace {

constexpr char kPathGlob[] = "kernel/bpf/*.c";
constexpr size_t kStackDepth = 96;  // bpf_get_stack() depth retsnoop captures
constexpr uint64_t kFakeKaslr = 0x1e000000;

const char* vmlinux_path() { return std::getenv("RETSNOOP_VMLINUX"); }

std::shared_ptr<Vmlinux> open_or_skip(benchmark::State& state) {
  if (!vmlinux_path()) {
    state.SkipWithError("RETSNOOP_VMLINUX is not set");
    return nullptr;
  }
  return Vmlinux::open(vmlinux_path());
}

struct Stack {
  Kallsyms ksyms;
  std::vector<uint64_t> frames;  // runtime return addresses, outermost last like bpf_get_stack
};

// A deterministic sample of real functions, one frame in the middle of each. Spread over the
// whole kernel, so nearly every frame is in another compile unit: a pessimistic cold case.
Stack make_stack(const Vmlinux& image) {
  std::ostringstream text;
  text << std::hex << image.text_start() + kFakeKaslr << " T _stext\n";
  std::vector<uint64_t> mids;
  image.for_each_code_symbol([&](const ElfSymbol& sym) {
    if (!sym.is_function) return;
    text << sym.addr + kFakeKaslr << (sym.is_local ? " t " : " T ") << sym.name << "\n";
    if (sym.size >= 32) mids.push_back(sym.addr + sym.size / 2 + kFakeKaslr);
  });
  std::sort(mids.begin(), mids.end());
  std::mt19937_64 rng(42);
  std::shuffle(mids.begin(), mids.end(), rng);
  mids.resize(std::min(mids.size(), kStackDepth));
  return {Kallsyms::parse_text(text.str()), std::move(mids)};
}

void symbolize_stack(DwarfSymbolizer& sym, const std::vector<uint64_t>& frames) {
  for (uint64_t addr : frames) benchmark::DoNotOptimize(sym.symbolize(addr, true));
}

void BM_PathGlobCold(benchmark::State& state) {
  if (!open_or_skip(state)) return;
  size_t found = 0;
  for (auto _ : state) {
    CuGlobIndex index(Vmlinux::open(vmlinux_path()), "");
    found = index.functions_in_paths(kPathGlob).size();
  }
  state.SetLabel("functions=" + std::to_string(found));
}

void BM_PathGlobWarm(benchmark::State& state) {
  if (!open_or_skip(state)) return;
  std::string cache =
      std::filesystem::temp_directory_path() / ("rs-symbolize-bench." + std::to_string(getpid()));
  CuGlobIndex(Vmlinux::open(vmlinux_path()), cache).functions_in_paths(kPathGlob);
  size_t found = 0;
  for (auto _ : state) {
    CuGlobIndex index(Vmlinux::open(vmlinux_path()), cache);
    found = index.functions_in_paths(kPathGlob).size();
  }
  std::filesystem::remove_all(cache);
  state.SetLabel("functions=" + std::to_string(found));
}

void BM_StackCold(benchmark::State& state) {
  std::shared_ptr<Vmlinux> image = open_or_skip(state);
  if (!image) return;
  Stack stack = make_stack(*image);
  image.reset();
  for (auto _ : state) {
    DwarfSymbolizer sym(stack.ksyms, {Vmlinux::open(vmlinux_path()), kFakeKaslr},
                        SymbLevel::Inlines);
    symbolize_stack(sym, stack.frames);
  }
  state.SetLabel("frames=" + std::to_string(stack.frames.size()));
}

void BM_StackWarm(benchmark::State& state) {
  std::shared_ptr<Vmlinux> image = open_or_skip(state);
  if (!image) return;
  Stack stack = make_stack(*image);
  DwarfSymbolizer sym(stack.ksyms, {image, kFakeKaslr}, SymbLevel::Inlines);
  symbolize_stack(sym, stack.frames);
  for (auto _ : state) symbolize_stack(sym, stack.frames);
  state.SetLabel("frames=" + std::to_string(stack.frames.size()));
}

// Cold runs are single iterations, repeated: after a page cache drop the first one is the truly
// cold figure.
BENCHMARK(BM_PathGlobCold)->Unit(benchmark::kMillisecond)->Iterations(1)->Repetitions(3);
BENCHMARK(BM_PathGlobWarm)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_StackCold)->Unit(benchmark::kMillisecond)->Iterations(1)->Repetitions(3);
BENCHMARK(BM_StackWarm)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace retsnoop

BENCHMARK_MAIN();
