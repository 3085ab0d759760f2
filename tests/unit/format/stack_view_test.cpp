#include "format/stack_view.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "example_sessions.h"
#include "fake_user_symbols.h"
#include "golden.h"
#include "view_text.h"

namespace retsnoop::test {
namespace {

std::string stack(ExampleCase& c, const FormatOptions& opts = {}) {
  return stack_text(c.session, {c.funcs.table, c.symbolizer, opts});
}

TEST(StackView, KallsymsOnlyHasNoSourceColumnAndNoInlines) {
  ExampleCase c = percpu_array_case();
  EXPECT_TRUE(matches_golden(stack(c, {.symb = SymbLevel::None}), "kallsyms_only_stack.txt"));
}

TEST(StackView, LinesLevelKeepsSourcesButNoInlines) {
  ExampleCase c = percpu_array_case();
  std::string out = stack(c, {.symb = SymbLevel::Lines});
  EXPECT_NE(out.find("(kernel/bpf/syscall.c:4947:9)"), std::string::npos);
  EXPECT_EQ(out.find(". map_create"), std::string::npos);
}

TEST(StackView, RawAddressesAndDecimalOffsets) {
  ExampleCase c = percpu_array_case();
  EXPECT_TRUE(
      matches_golden(stack(c, {.emit_addrs = true, .dec_offsets = true}), "raw_addrs_stack.txt"));
}

TEST(StackView, UnfilteredKeepsTracingMachineryFrames) {
  ExampleCase c = percpu_array_case();
  EXPECT_TRUE(matches_golden(stack(c, {.unfiltered_stacks = true}), "unfiltered_stack.txt"));
}

// A verifier failure: bpf_prog_load has no frame between two that do, and __sys_bpf is an
// untraced frame between traced ones; check_helper_call is stitched.
ExampleCase verifier_case() {
  ExampleCase c{{}, {}, FakeSymbolizer("merge.sym")};
  c.funcs.add("__x64_sys_bpf", RetKind::Int64);
  c.funcs.add("bpf_prog_load", RetKind::Int32);
  c.funcs.add("bpf_check", RetKind::Int32);
  c.funcs.add("do_check_common", RetKind::Int32);
  c.funcs.add("check_helper_call", RetKind::Int32);
  c.session.calls = {
      call(c.funcs, "__x64_sys_bpf", 120400, -22),
      call(c.funcs, "bpf_prog_load", 118000, -22),
      call(c.funcs, "bpf_check", 97000, -22),
      call(c.funcs, "do_check_common", 61000, -22),
      call(c.funcs, "check_helper_call", 3000, -13, true),
  };
  c.session.kstack = {0xffffffff81e0007c, 0xffffffff81d3e0a5, 0xffffffff8127b41a,
                      0xffffffff8127ada4, 0xffffffff8129d75a};
  return c;
}

// x, A, y, B(no frame), D: the frameless call is printed where the stack reaches it.
TEST(StackView, FramelessCallSitsBetweenTheFramesAroundIt) {
  ExampleCase c = verifier_case();
  EXPECT_TRUE(matches_golden(stack(c), "merge_stack.txt"));
}

// User-space calls made the system call: above the kernel's outermost frame, marked as user,
// even one named like a kernel frame.
TEST(StackView, UserCallsGoAboveTheKernelStack) {
  ExampleCase c = verifier_case();
  uint32_t run = c.funcs.add("su_run", RetKind::Int64);
  uint32_t lib = c.funcs.add("bpf_prog_load", RetKind::Int64);
  c.funcs.table[run].binary = "/bin/simfail-user";
  c.funcs.table[lib].binary = "/lib/libsimfail.so";
  c.session.calls.insert(c.session.calls.begin(), {{.func_id = run, .dur_ns = 200000, .res = -22},
                                                   {.func_id = lib, .dur_ns = 150000, .res = -22}});
  for (size_t i = 0; i < c.session.calls.size(); ++i) c.session.calls[i].seq = uint32_t(i);
  std::string out = stack(c);
  size_t user_run = out.find("su_run [user simfail-user]");
  size_t user_lib = out.find("bpf_prog_load [user libsimfail.so]");
  size_t kernel = out.find("entry_SYSCALL_64");
  ASSERT_NE(user_run, std::string::npos) << out;
  ASSERT_NE(user_lib, std::string::npos) << out;
  EXPECT_LT(user_run, user_lib);
  EXPECT_LT(user_lib, kernel) << out;
  EXPECT_NE(out.find("  bpf_prog_load"), std::string::npos) << out;
}

// Module names, DWARF names of renamed functions, unknown addresses, recursion merged in
// order, and columns widened by long names, durations and results.
TEST(StackView, AnnotatedFramesAndWideColumns) {
  ExampleCase c{{}, {}, FakeSymbolizer("annotated.sym")};
  c.funcs.add("kvm_vcpu_ioctl", RetKind::Int64, "kvm");
  c.funcs.add("kvm_arch_vcpu_ioctl_set_guest_debug", RetKind::Int32, "kvm");
  c.funcs.add("walk_tree.isra.0", RetKind::Int32);
  c.session.calls = {
      call(c.funcs, "kvm_vcpu_ioctl", 2500000123, -512),
      call(c.funcs, "kvm_arch_vcpu_ioctl_set_guest_debug", 2400000000, -512),
      call(c.funcs, "walk_tree.isra.0", 12345, -2),
      call(c.funcs, "walk_tree.isra.0", 8000, -2),
      call(c.funcs, "walk_tree.isra.0", 3999, -2),
  };
  c.session.kstack = {0xffffffff81e0007c, 0xffffffff81d3e0a5, 0xffffffff8134a08b,
                      0xffffffffc08a1234, 0xffffffffc0ffee00, 0xffffffff8150c0a8,
                      0xffffffff8150c061};
  EXPECT_TRUE(matches_golden(stack(c), "annotated_stack.txt"));
}

// The verifier case of the merge test with two stitched levels (a nested stitch): neither takes
// a kernel frame, both follow the reported chain.
TEST(StackView, NestedStitchedLevelsFollowTheReportedChain) {
  ExampleCase c = verifier_case();
  c.session.calls[3].stitched = true;
  EXPECT_TRUE(matches_golden(stack(c), "nested_stitch_stack.txt"));
}

// -I: the calls still running have no duration or result, even where a kernel frame matches.
TEST(StackView, RunningCallsOfAnInterimSessionShowNoResult) {
  ExampleCase c = verifier_case();
  for (size_t i = 0; i < 3; ++i) c.session.calls[i].running = true;
  EXPECT_TRUE(matches_golden(stack(c), "interim_stack.txt"));
}

// fentry/fexit attach: the stack holds each running traced function's fentry call site, its BPF
// trampoline and, at the top, the fexit trampoline and program; kprobe stacks have none of them.
ExampleCase fentry_case() {
  ExampleCase c{{}, {}, FakeSymbolizer("fentry.sym")};
  c.funcs.add("__x64_sys_bpf", RetKind::Int64);
  c.funcs.add("__sys_bpf", RetKind::Int32);
  c.funcs.add("array_map_alloc_check", RetKind::Int32);
  c.session.calls = {
      call(c.funcs, "__x64_sys_bpf", 747000, -22),
      call(c.funcs, "__sys_bpf", 358000, -22),
      call(c.funcs, "array_map_alloc_check", 75000, -22),
  };
  c.session.kstack = {0xffffffff93e0012f, 0xffffffff93c8f027, 0xffffffff93290739,
                      0xffffffffc0253834, 0xffffffff9329074e, 0xffffffff9328dda5,
                      0xffffffffc0252c0c, 0xffffffff9328ff2c, 0xffffffff9328afc0,
                      0xffffffff932c8309, 0xffffffffc02539aa, 0xffffffffc0253246};
  return c;
}

TEST(StackView, FentryStackLooksLikeTheKprobeOne) {
  ExampleCase c = fentry_case();
  EXPECT_TRUE(matches_golden(stack(c, {.symb = SymbLevel::None}), "fentry_stack.txt"));
}

TEST(StackView, UnfilteredFentryStackKeepsCallSitesAndTrampolines) {
  ExampleCase c = fentry_case();
  std::string out = stack(c, {.symb = SymbLevel::None, .unfiltered_stacks = true});
  EXPECT_EQ(split_lines(out).size(), c.session.kstack.size()) << out;
  EXPECT_NE(out.find("__x64_sys_bpf+0x9\n"), std::string::npos) << out;
  EXPECT_NE(out.find("bpf_trampoline_6442484048+0xaa [bpf]\n"), std::string::npos) << out;
}

TEST(StackView, KernelFramesAreSymbolizedAsReturnAddresses) {
  ExampleCase c = percpu_array_case();
  stack(c);
  ASSERT_EQ(c.symbolizer.queries.size(), c.session.kstack.size());
  for (const auto& [addr, is_return_addr] : c.symbolizer.queries) EXPECT_TRUE(is_return_addr);
}

// A stitched level comes from an earlier sub-chain: a frame of the same name in the stack
// captured later belongs to another call.
TEST(StackView, StitchedCallsNeverTakeAKernelFrame) {
  ExampleCase c = percpu_array_case();
  c.session.calls[1].stitched = true;
  std::string out = stack(c);
  EXPECT_NE(out.find("\n                    __sys_bpf+0x38b"), std::string::npos) << out;
  EXPECT_NE(out.find("\n!*  70us [-ENOMEM]  __sys_bpf\n"), std::string::npos) << out;
}

TEST(StackView, WithoutKernelStackEveryCallIsFrameless) {
  ExampleCase c = percpu_array_case();
  c.session.kstack.clear();
  EXPECT_EQ(stack(c),
            "!   73us [-ENOMEM]  __x64_sys_bpf\n"
            "!   70us [-ENOMEM]  __sys_bpf\n"
            "!   50us [-ENOMEM]  array_map_alloc\n"
            "!*   2us [NULL]     bpf_map_alloc_percpu\n");
}

// -U: the user stack under the kernel's, innermost first, in the same duration and result columns.
TEST(StackView, UserStackBelowTheKernelStack) {
  ExampleCase c = percpu_array_case();
  using U = FakeUserSymbols;
  c.session.ustack = {U::kSyscall, U::kCreateMap, U::kMain, U::kNoSymbol, U::kUnmapped};
  FakeUserSymbols user;
  FormatOptions opts;
  FormatContext ctx{c.funcs.table, c.symbolizer, opts, nullptr, kNoProbes, &user};
  EXPECT_TRUE(matches_golden(stack_text(c.session, ctx), "user_stack.txt"));
  EXPECT_FALSE(user.asked_as_return(U::kSyscall));  // where the thread entered the kernel
  EXPECT_TRUE(user.asked_as_return(U::kMain));
}

TEST(StackView, UserLinesOffWithSymbolsOnly) {
  ExampleCase c = percpu_array_case();
  c.session.ustack = {FakeUserSymbols::kMain};
  FakeUserSymbols user;
  FormatOptions opts{.symb = SymbLevel::None, .user_lines = false};
  std::string out =
      stack_text(c.session, {c.funcs.table, c.symbolizer, opts, nullptr, kNoProbes, &user});
  EXPECT_NE(out.find("main+0x62 [/home/u/loader]\n"), std::string::npos);
  EXPECT_EQ(out.find("loader.c"), std::string::npos);
}

// Symbol names and paths of other users' binaries reach the terminal escaped, one line a frame.
TEST(StackView, UserFramesAreEscaped) {
  ExampleCase c = percpu_array_case();
  c.session.ustack = {FakeUserSymbols::kHostile, FakeUserSymbols::kHostileNoSymbol};
  FakeUserSymbols user;
  FormatOptions opts;
  std::string plain = stack_text(c.session, {c.funcs.table, c.symbolizer, opts});
  std::string out =
      stack_text(c.session, {c.funcs.table, c.symbolizer, opts, nullptr, kNoProbes, &user});
  EXPECT_NE(out.find("ev\\x1b[1mil\\n+0x4 [/tmp/b\\x1b]0;t\\x07]"), std::string::npos) << out;
  EXPECT_NE(out.find("(/tmp/s\\r.c:3:1)"), std::string::npos) << out;
  EXPECT_NE(out.find("[/tmp/\\x9b2J\\nx+0x271ca]"), std::string::npos) << out;
  EXPECT_EQ(std::count(out.begin(), out.end(), '\n'),
            std::count(plain.begin(), plain.end(), '\n') + 2);
  for (unsigned char ch : out) EXPECT_TRUE(ch == '\n' || (ch >= 0x20 && ch < 0x7f)) << int(ch);
}

}  // namespace
}  // namespace retsnoop::test
