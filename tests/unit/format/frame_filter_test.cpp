#include "format/frame_filter.h"

#include <gtest/gtest.h>

namespace retsnoop {
namespace {

SymbolizedAddr sym(const std::string& name, const std::string& module = "") {
  return {.found = true, .name = name, .module = module};
}

TEST(FrameFilter, DropsBpfProgramsAndTrampolines) {
  EXPECT_TRUE(is_tracing_frame(sym("bpf_prog_6deef7357e7b4530_rs_exit")));
  EXPECT_TRUE(is_tracing_frame(sym("bpf_prog_6deef7357e7b4530")));
  EXPECT_TRUE(is_tracing_frame(sym("bpf_trampoline_6442521045")));
  EXPECT_TRUE(is_tracing_frame(sym("bpf_dispatcher_xdp", "bpf")));
}

TEST(FrameFilter, DropsEveryReturnTrampolineSpelling) {
  for (const char* name : {"__kretprobe_trampoline", "kretprobe_trampoline", "ftrace_trampoline",
                           "rethook_trampoline", "arch_rethook_trampoline", "return_to_handler"})
    EXPECT_TRUE(is_tracing_frame(sym(name))) << name;
}

TEST(FrameFilter, KeepsKernelFunctionsWithBpfPrefixes) {
  EXPECT_FALSE(is_tracing_frame(sym("bpf_prog_load")));
  EXPECT_FALSE(is_tracing_frame(sym("bpf_prog_select_runtime")));
  EXPECT_FALSE(is_tracing_frame(sym("bpf_prog_6deef7357e7b453")));  // tag one digit short
  EXPECT_FALSE(is_tracing_frame(sym("bpf_prog_alloc_no_stats_x")));
  EXPECT_FALSE(is_tracing_frame(sym("bpf_trampoline_link_prog")));
  EXPECT_FALSE(is_tracing_frame(sym("kretprobe_trampoline_handler")));
}

TEST(FrameFilter, KeepsUnknownAddresses) { EXPECT_FALSE(is_tracing_frame(SymbolizedAddr{})); }

}  // namespace
}  // namespace retsnoop
