#include "format/line_trace_view.h"

#include <gtest/gtest.h>

#include "fake_symbolizer.h"
#include "format/calltrace_view.h"
#include "format/json_view.h"
#include "golden.h"
#include "test_funcs.h"

namespace retsnoop::test {
namespace {

constexpr uint64_t kFunc = 0xffffffff81200100;

// array_map_alloc_check fails with -EINVAL below __sys_bpf; its line probes, by line id.
struct LineCase {
  TestFuncs funcs;
  FakeSymbolizer symbolizer{"lines.sym"};
  std::vector<LineProbe> probes = {
      {"array_map_alloc_check", kFunc, kFunc + 0x05, "kernel/bpf/arraymap.c", 53},
      {"array_map_alloc_check", kFunc, kFunc + 0x13, "kernel/bpf/arraymap.c", 54},
      {"array_map_alloc_check", kFunc, kFunc + 0x1d, "kernel/bpf/arraymap.c", 57},
      {"array_map_alloc_check", kFunc, kFunc + 0x6f, "kernel/bpf/arraymap.c", 62},
  };
  Session session;
  FormatOptions opts;

  LineCase() {
    uint32_t sys_bpf = funcs.add("__sys_bpf", RetKind::Int32);
    uint32_t check = funcs.add("array_map_alloc_check", RetKind::Int32);
    session.is_error = true;
    session.calls = {{.func_id = sys_bpf, .seq = 0, .dur_ns = 9000, .res = -22},
                     {.func_id = check, .seq = 1, .dur_ns = 2000, .res = -22}};
    // Two earlier hits in __sys_bpf's own time were not kept; line 57 ran twice in a row.
    session.lines = {{0, 1, 2}, {1, 1, 2}, {2, 1, 2}, {2, 1, 2}, {3, 1, 2}};
    session.lines_dropped = 2;
  }

  FormatContext ctx() {
    FormatContext c{funcs.table, symbolizer, opts};
    return {c.funcs, c.symbolizer, c.opts, nullptr, kNoProbes, nullptr, nullptr, nullptr, probes};
  }
};

TEST(LineTraceView, HitsOldestFirstWithTheReturningLineMarked) {
  LineCase c;
  EXPECT_TRUE(matches_golden(format_line_trace(c.session, c.ctx()), "line_trace.txt"));
}

TEST(LineTraceView, NoHitNoView) {
  LineCase c;
  c.session.lines.clear();
  c.session.lines_dropped = 0;
  EXPECT_EQ(format_line_trace(c.session, c.ctx()), "");
}

// Only a traced call's own last line is where it returned: a hit recorded in another call (its
// caller's time, an earlier call) is not.
TEST(LineTraceView, ReturningLineIsTheLastOfTheCallItself) {
  LineCase c;
  c.session.lines.push_back({1, 7, 9});  // a later call's hit, not in the reported stack
  std::map<size_t, std::string> marked = returning_hits(c.session, c.ctx());
  ASSERT_EQ(marked.size(), 1u);
  EXPECT_EQ(marked.begin()->first, 4u);
  EXPECT_EQ(marked.begin()->second, "[-EINVAL]");
}

TEST(LineTraceView, UnknownLineIdDegradesToAPlaceholder) {
  LineCase c;
  c.session.lines = {{99, 1, 0}};
  c.session.lines_dropped = 0;
  EXPECT_NE(format_line_trace(c.session, c.ctx()).find("[unknown line]"), std::string::npos);
}

// -T: the hits sit inside the call they ran in, between its entry and exit rows; a line hit
// again right away is one row with a count.
TEST(LineTraceView, CallTraceRowsUnderTheirCall) {
  LineCase c;
  uint32_t sys_bpf = c.funcs.id("__sys_bpf"), check = c.funcs.id("array_map_alloc_check");
  c.session.trace = {
      {.func_id = sys_bpf, .seq = 0, .call_seq = 0, .depth = 0, .kind = TraceRecordKind::Entry},
      {.func_id = check, .seq = 1, .call_seq = 1, .depth = 1, .kind = TraceRecordKind::Entry},
      {.func_id = check,
       .seq = 2,
       .depth = 1,
       .kind = TraceRecordKind::Exit,
       .dur_ns = 2000,
       .res = -22},
      {.func_id = sys_bpf,
       .seq = 3,
       .depth = 0,
       .kind = TraceRecordKind::Exit,
       .dur_ns = 9000,
       .res = -22}};
  c.opts.calltrace = true;
  EXPECT_TRUE(matches_golden(format_calltrace(c.session, c.ctx()), "line_trace_calltrace.txt"));
}

TEST(LineTraceView, JsonGroupsHitsByCall) {
  LineCase c;
  std::string json = format_session_json(c.session, c.ctx(), 0);
  EXPECT_NE(json.find("\"line_trace\":[{\"call_seq\":1,\"lines\":[{\"addr\":"), std::string::npos);
  EXPECT_NE(json.find("\"returned\":\"[-EINVAL]\""), std::string::npos);
  EXPECT_NE(json.find("\"line_hits_dropped\":2"), std::string::npos);
  EXPECT_NE(json.find("\"name\":\"bpf_map_attr_numa_node\""), std::string::npos);
}

}  // namespace
}  // namespace retsnoop::test
