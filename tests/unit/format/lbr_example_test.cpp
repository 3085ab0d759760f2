// Goldens of the reference LBR layout that lbr_view_test and session_view_test leave out: the
// default any_return example (inlined calls on the target side only, two levels deep) and the
// --lbr=any example without DWARF.
#include <gtest/gtest.h>

#include "example_sessions.h"
#include "format/session_view.h"
#include "golden.h"

namespace retsnoop::test {
namespace {

// #07..#03 as the reference output shows them, then #02..#00 spent by the kretprobe and the BPF
// program.
std::vector<LbrRecord> lbr_any_return_records() {
  return {
      {0xffffffff815a122f, 0xffffffff812790cc}, {0xffffffff8143213e, 0xffffffff812790e5},
      {0xffffffff815b3478, 0xffffffff81279bcf}, {0xffffffff8128c074, 0xffffffff81279ca0},
      {0xffffffff81279093, 0xffffffff810b2c10}, {0xffffffff810b1f6a, 0xffffffff810b2c35},
      {0xffffffff811c4080, 0xffffffff811a2350}, {0xffffffff811c8a20, 0xffffffffa000a130},
  };
}

// `retsnoop -e '*sys_bpf' --lbr`, simfail bpf-bad-map-max-entries-array.
ExampleCase lbr_any_return_case() {
  ExampleCase c{
      {},
      simfail_session(1056498, mono_ns_at(16, 48, 57, 961192), mono_ns_at(16, 48, 57, 961216)),
      FakeSymbolizer("lbr_any_return.sym")};
  TestFuncs& f = c.funcs;
  f.add("__x64_sys_bpf", RetKind::Int64);
  f.add("__sys_bpf", RetKind::Int32);
  c.session.calls = {call(f, "__x64_sys_bpf", 24310, -22), call(f, "__sys_bpf", 10402, -22)};
  c.session.kstack = {0xffffffff81e0003c, 0xffffffff81d3e09d, 0xffffffff8127b41c,
                      0xffffffff810b2c10};
  c.session.lbr = lbr_any_return_records();
  return c;
}

TEST(LbrExample, AnyReturnExampleWithDwarf) {
  ExampleCase c = lbr_any_return_case();
  EXPECT_TRUE(matches_golden(format_example(c, {.lbr = true}), "lbr_any_return_session.txt"));
}

TEST(LbrExample, AnyReturnExampleWithoutDwarf) {
  ExampleCase c = lbr_any_return_case();
  EXPECT_TRUE(matches_golden(format_example(c, {.symb = SymbLevel::None, .lbr = true}),
                             "lbr_any_return_kallsyms.txt"));
}

TEST(LbrExample, AnyExampleWithoutDwarf) {
  ExampleCase c = lbr_any_case();
  EXPECT_TRUE(matches_golden(format_example(c, {.symb = SymbLevel::None, .lbr = true}),
                             "lbr_any_kallsyms.txt"));
}

}  // namespace
}  // namespace retsnoop::test
