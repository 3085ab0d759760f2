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
  EXPECT_TRUE(is_tracing_frame(sym("bpf_trampoline_13628_1")));  // 5.10: key and image index
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

SymbolizedAddr at(const std::string& name, uint64_t offset, const std::string& module = "") {
  return {.found = true, .name = name, .offset = offset, .module = module};
}

const SymbolizedAddr kTrampoline = at("bpf_trampoline_6442461877", 0x89, "bpf");

TEST(FrameFilter, FentryCallSiteOutsideATrampoline) {
  EXPECT_TRUE(is_fentry_call_site(at("__sys_bpf", 0x5), kTrampoline));
  EXPECT_TRUE(is_fentry_call_site(at("__x64_sys_bpf", 0x9), kTrampoline));  // after endbr64
  // 5.10 names each image of a trampoline.
  EXPECT_TRUE(is_fentry_call_site(at("__x64_sys_bpf", 0x5), at("bpf_trampoline_13628_1", 0x48)));
}

TEST(FrameFilter, FunctionBodyOutsideATrampolineIsKept) {
  EXPECT_FALSE(is_fentry_call_site(at("__x64_sys_bpf", 0x1a), kTrampoline));
  EXPECT_FALSE(is_fentry_call_site(at("__sys_bpf", 0x0), kTrampoline));
  EXPECT_FALSE(is_fentry_call_site(at("__sys_bpf", 0x7), kTrampoline));
}

TEST(FrameFilter, CallSiteOffsetsNeedATrampolineInside) {
  EXPECT_FALSE(is_fentry_call_site(at("__sys_bpf", 0x5), at("map_create", 0xf9)));
  EXPECT_FALSE(
      is_fentry_call_site(at("__sys_bpf", 0x5), at("bpf_prog_c4cd11e944f97b11_rs_fexit", 0x53d)));
  EXPECT_FALSE(is_fentry_call_site(at("__sys_bpf", 0x5), at("bpf_trampoline_link_prog", 0x5)));
  EXPECT_FALSE(is_fentry_call_site(at("__sys_bpf", 0x5), at("bpf_trampoline_13628_", 0x5)));
  EXPECT_FALSE(is_fentry_call_site(at("__sys_bpf", 0x5), at("bpf_trampoline_1_2_3", 0x5)));
  EXPECT_FALSE(is_fentry_call_site(at("__sys_bpf", 0x5), SymbolizedAddr{}));
}

TEST(FrameFilter, UnknownCallSiteIsKept) {
  SymbolizedAddr unknown;
  unknown.offset = 0x5;
  EXPECT_FALSE(is_fentry_call_site(unknown, kTrampoline));
}

}  // namespace
}  // namespace retsnoop
