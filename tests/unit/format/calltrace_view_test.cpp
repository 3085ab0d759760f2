#include "format/calltrace_view.h"

#include <gtest/gtest.h>

#include "example_sessions.h"
#include "golden.h"

namespace retsnoop::test {
namespace {

struct TraceCase {
  TestFuncs funcs;
  Session session;
  ProbeTable probes;
};

std::string table(const TraceCase& c) {
  FakeSymbolizer unused("simple_obj.sym");
  FormatOptions opts{.calltrace = true};
  return format_calltrace(c.session, {c.funcs.table, unused, opts, nullptr, c.probes});
}

std::vector<std::string> rows_of(const std::string& text) {
  std::vector<std::string> rows = split_lines(text);
  rows.erase(rows.begin(), rows.begin() + 2);  // header and rule
  return rows;
}

TraceCase simple_obj_funcs() {
  TraceCase c;
  add_simple_obj_funcs(c.funcs);
  return c;
}

TEST(CallTraceView, ShortenedExampleTable) {
  TraceCase c = simple_obj_funcs();
  TraceBuilder t(c.funcs);
  t.enter("bpf_prog_load");
  t.enter("bpf_prog_alloc")
      .leaf("bpf_prog_alloc_no_stats", kProgAddr, 5539)
      .leave(kProgAddr, 10265);
  t.lose(1200);
  t.enter("bpf_prog_kallsyms_add").leaf("bpf_ksym_add", 0, 2046).leave(0, 6104);
  t.leave(5, 374697);
  c.session.trace = t.records();
  EXPECT_TRUE(matches_golden(table(c), "simple_obj_calltrace_short.txt"));
}

TEST(CallTraceView, LongNamesAndWideResultsWidenTheirColumns) {
  TraceCase c;
  c.funcs.add("vfs_read", RetKind::Int64);
  c.funcs.add("ext4_file_read_iter_with_a_name_longer_than_the_column", RetKind::Int64);
  c.funcs.add("kmalloc_trace", RetKind::Unsigned);
  c.funcs.add("noop", RetKind::Int32);
  TraceBuilder t(c.funcs);
  t.enter("vfs_read").enter("ext4_file_read_iter_with_a_name_longer_than_the_column");
  t.leaf("kmalloc_trace", int64_t(0xffff888100000000), 1250);
  t.leave(INT64_MIN, 1234567890);
  t.leaf("noop", 0, 999);
  t.leave(4096, 1234600000);
  c.session.trace = t.records();
  EXPECT_TRUE(matches_golden(table(c), "calltrace_wide.txt"));
}

// Each hit sits one level inside the calls running when it hit, in record order; hits inside a
// call keep it from collapsing into a leaf row. Probe id 9 is not in the table.
TEST(CallTraceView, ProbeHitsNestInsideTheRunningCall) {
  TraceCase c;
  c.funcs.add("__x64_sys_bpf", RetKind::Int64);
  c.funcs.add("__sys_bpf", RetKind::Int32);
  c.funcs.add("array_map_alloc_check", RetKind::Int32);
  c.probes = {parse_probe_spec("kprobe:array_map_alloc_check"),
              parse_probe_spec("kretprobe:array_map_alloc_check"),
              parse_probe_spec("tp:bpf:bpf_map_create"), parse_probe_spec("kprobe:__sys_bpf+0x2a")};
  TraceBuilder t(c.funcs);
  t.enter("__x64_sys_bpf").enter("__sys_bpf").probe(2);
  t.enter("array_map_alloc_check").probe(0).probe(1).leave(-22, 1500);
  t.lose(1).probe(3).probe(9);
  t.leave(-22, 4200).leave(-22, 5100);
  c.session.trace = t.records();
  EXPECT_TRUE(matches_golden(table(c), "calltrace_probes.txt"));
}

// A kernel message sits where its time falls among the calls: inside a call it keeps the call
// from collapsing into a leaf row, after the entry function's exit it closes the table.
TEST(CallTraceView, KernelMessagesSitAtTheirTime) {
  TraceCase c;
  c.funcs.add("__x64_sys_swapon", RetKind::Int64);
  c.funcs.add("claim_swapfile", RetKind::Int32);
  c.funcs.add("read_swap_header", RetKind::Int32);
  TraceBuilder t(c.funcs);
  t.enter("__x64_sys_swapon").leaf("claim_swapfile", 0, 50).leaf("read_swap_header", 0, 500);
  t.leave(-22, 2000);
  c.session.trace = t.records();
  auto msg = [](uint64_t ts, const char* text) {
    return KernelMessage{.kind = KernelMessageKind::Printk, .time_ns = ts, .fmt = text};
  };
  c.session.messages = {msg(1000500, "no signature\n"), msg(1001000, "after\x1b"),
                        msg(1003000, "late\n")};
  std::vector<std::string> rows = rows_of(table(c));
  ASSERT_EQ(rows.size(), 8u) << table(c);
  EXPECT_EQ(rows[0], "→ __x64_sys_swapon");
  EXPECT_TRUE(rows[1].starts_with("    ↔ claim_swapfile  ")) << rows[1];
  EXPECT_EQ(rows[2], "    → read_swap_header");
  EXPECT_EQ(rows[3], "        » [unknown] printk: no signature");
  EXPECT_TRUE(rows[4].starts_with("    ← read_swap_header  ")) << rows[4];
  EXPECT_EQ(rows[5], "    » [unknown] printk: after\\x1b");
  EXPECT_TRUE(rows[6].starts_with("← __x64_sys_swapon  ")) << rows[6];
  EXPECT_EQ(rows[7], "» [unknown] printk: late");
}

// The entries of bpf_check and check_cfg are lost: their exits still tell their durations.
TEST(CallTraceView, LostRecordsAndLostEntry) {
  TraceCase c = simple_obj_funcs();
  TraceBuilder t(c.funcs);
  t.enter("bpf_prog_load").enter("bpf_prog_alloc").leave(kProgAddr, 10265);
  t.enter("bpf_check").leaf("check_cfg", 0, 2199).leave(-22, 12000);
  t.leave(-22, 50000);
  c.session.trace = t.records();
  c.session.trace.erase(c.session.trace.begin() + 3, c.session.trace.begin() + 5);
  c.session.trace_lost = 2;
  EXPECT_TRUE(matches_golden(table(c), "calltrace_lost.txt"));
}

// One check_cfg call's exit and the next one's entry are lost: the exit after the gap must show
// its own call's duration, not the time since the earlier call's entry.
TEST(CallTraceView, ExitAfterAGapKeepsItsOwnDuration) {
  TraceCase c = simple_obj_funcs();
  TraceBuilder t(c.funcs);
  t.enter("bpf_check").leaf("check_cfg", 0, 2199).leaf("check_cfg", 0, 1500).leave(0, 90000);
  c.session.trace = t.records();
  c.session.trace.erase(c.session.trace.begin() + 2, c.session.trace.begin() + 4);
  std::vector<std::string> rows = rows_of(table(c));
  ASSERT_EQ(rows.size(), 5u);
  EXPECT_EQ(rows[1], "    → check_cfg");
  EXPECT_EQ(rows[2], "        [...]");
  EXPECT_TRUE(rows[3].starts_with("    ← check_cfg ")) << rows[3];
  EXPECT_TRUE(rows[3].ends_with(" 1.500us")) << rows[3];
}

// The first and the last records are lost (a flood filled the ring buffer before the reader
// drained it): the trace starts and ends with a gap row, since the header counted them.
TEST(CallTraceView, LostFirstAndLastRecordsShowAsGaps) {
  TraceCase c = simple_obj_funcs();
  TraceBuilder t(c.funcs);
  t.enter("bpf_prog_load").enter("bpf_check").leaf("check_cfg", 0, 2199).leave(-22, 12000);
  t.leave(-22, 50000);
  c.session.trace = t.records();
  c.session.trace.erase(c.session.trace.begin() + 4, c.session.trace.end());
  c.session.trace.erase(c.session.trace.begin());
  c.session.trace_lost = 3;
  std::vector<std::string> rows = rows_of(table(c));
  ASSERT_EQ(rows.size(), 5u);
  EXPECT_EQ(rows[0], "[...]");
  EXPECT_EQ(rows[1], "→ bpf_check");
  EXPECT_TRUE(rows[2].starts_with("    ↔ check_cfg ")) << rows[2];
  EXPECT_EQ(rows[3], "    [...]");
  EXPECT_EQ(rows[4], "WARNING: 3 call trace records were lost, the trace above is incomplete");
}

TEST(CallTraceView, IndentationStopsAtTwentyLevels) {
  TraceCase c;
  c.funcs.add("f", RetKind::Void);
  TraceBuilder t(c.funcs);
  for (int i = 0; i < 22; ++i) t.enter("f");
  c.session.trace = t.records();
  std::vector<std::string> rows = rows_of(table(c));
  ASSERT_EQ(rows.size(), 22u);
  EXPECT_EQ(rows[19], std::string(76, ' ') + "→ f");
  EXPECT_EQ(rows[20], std::string(80, ' ') + "→ f");
  EXPECT_EQ(rows[21], std::string(80, ' ') + "→ f");
}

TEST(CallTraceView, DepthNumberingDoesNotMatter) {
  TraceCase zero = simple_obj_funcs(), five = simple_obj_funcs();
  zero.session.trace = simple_obj_trace(zero.funcs);
  five.session.trace = simple_obj_trace(five.funcs);
  for (TraceRecord& r : zero.session.trace) r.depth -= 1;
  for (TraceRecord& r : five.session.trace) r.depth += 4;
  EXPECT_EQ(table(zero), table(five));
}

TEST(CallTraceView, EntryDirectlyFollowedByItsExitIsOneRow) {
  TraceCase c = simple_obj_funcs();
  TraceBuilder t(c.funcs);
  t.enter("bpf_check").leaf("check_cfg", 0, 2199).leave(0, 5000);
  c.session.trace = t.records();
  std::vector<std::string> rows = rows_of(table(c));
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[1].substr(0, 17), "    ↔ check_cfg");
}

}  // namespace
}  // namespace retsnoop::test
