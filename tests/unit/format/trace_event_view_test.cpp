#include "format/trace_event_view.h"

#include <gtest/gtest.h>

#include <map>
#include <vector>

#include "example_sessions.h"

namespace retsnoop::test {
namespace {

using nlohmann::json;

// The rules of the trace-event format that viewers rely on: per thread, every "B" is closed by
// an "E" of the same name, events are in time order, and a slice lies within its parent.
void expect_well_formed(const json& events) {
  std::map<int, std::vector<json>> open;  // by tid
  double last_ts = 0;
  for (const json& e : events) {
    if (e["ph"] == "M") continue;
    ASSERT_TRUE(e["ts"].is_number()) << e;
    double ts = e["ts"];
    EXPECT_GE(ts, last_ts) << "out of time order: " << e;
    last_ts = ts;
    auto& stack = open[e["tid"].get<int>()];
    if (e["ph"] == "B") {
      stack.push_back(e);
    } else {
      ASSERT_EQ(e["ph"], "E") << e;
      ASSERT_FALSE(stack.empty()) << "end without begin: " << e;
      EXPECT_EQ(stack.back()["name"], e["name"]);
      EXPECT_GE(ts, stack.back()["ts"].get<double>());
      stack.pop_back();
    }
  }
  for (const auto& [tid, stack] : open) EXPECT_TRUE(stack.empty()) << "unclosed slices on " << tid;
}

TestFuncs int_funcs(std::initializer_list<const char*> names) {
  TestFuncs f;
  for (const char* name : names) f.add(name, RetKind::Int32);
  return f;
}

TraceRecord entry_record(const TestFuncs& f, const char* name, uint32_t seq, uint16_t depth,
                         uint64_t ts_ns) {
  return {.func_id = f.id(name),
          .seq = seq,
          .depth = depth,
          .kind = TraceRecordKind::Entry,
          .ts_ns = ts_ns};
}

TraceRecord exit_record(const TestFuncs& f, const char* name, uint32_t seq, uint16_t depth,
                        uint64_t dur_ns, int64_t res) {
  return {.func_id = f.id(name), .seq = seq, .depth = depth, .dur_ns = dur_ns, .res = res};
}

TEST(TraceEventView, CallTraceBecomesNestedSlicesOnTheThreadTrack) {
  ExampleCase c = simple_obj_case();
  json events = session_trace_events(c.session, c.funcs.table);
  expect_well_formed(events);
  EXPECT_EQ(events[0]["ph"], "M");
  EXPECT_EQ(events[0]["name"], "thread_name");
  EXPECT_EQ(events[0]["tid"], c.session.tid);
  const json& first = events[1];
  EXPECT_EQ(first["ph"], "B");
  EXPECT_EQ(first["name"], "bpf_prog_load");
  EXPECT_EQ(first["pid"], c.session.pid);
  EXPECT_EQ(first["tid"], c.session.tid);
  EXPECT_DOUBLE_EQ(first["ts"].get<double>(), c.session.trace[0].ts_ns / 1000.0);
}

TEST(TraceEventView, EndCarriesTheResult) {
  ExampleCase c = simple_obj_case();
  json events = session_trace_events(c.session, c.funcs.table);
  ASSERT_EQ(events[2]["name"], "bpf_prog_alloc");
  ASSERT_EQ(events[4]["ph"], "E");
  EXPECT_EQ(events[4]["name"], "bpf_prog_alloc_no_stats");
  EXPECT_EQ(events[4]["args"]["result"], "[0xffffc9000031e000]");
  EXPECT_EQ(events[4]["args"]["failed"], false);
  // bpf_prog_alloc_no_stats: entered 100 ns after bpf_prog_alloc, returned 5539 ns later.
  EXPECT_NEAR(events[4]["ts"].get<double>() - events[2]["ts"].get<double>(), 5.639, 1e-9);
}

// Lost records: an exit without its entry is left out, a call without its exit ends with the
// call that contains it, or with the session.
TEST(TraceEventView, LostRecordsStillPairUp) {
  TestFuncs f = int_funcs({"outer", "middle", "inner"});
  Session s = simfail_session(7, 1000000, 9000000);
  s.trace = {
      entry_record(f, "outer", 0, 0, 1000000),     entry_record(f, "middle", 1, 1, 2000000),
      exit_record(f, "inner", 3, 2, 500, -22),      // its entry was lost
      exit_record(f, "outer", 5, 0, 3000000, -22),  // middle's exit was lost
      entry_record(f, "outer", 6, 0, 5000000),
  };
  json events = session_trace_events(s, f.table);
  expect_well_formed(events);
  ASSERT_EQ(events.size(), 7u);
  EXPECT_EQ(events[3]["name"], "middle");
  EXPECT_DOUBLE_EQ(events[3]["ts"].get<double>(), 4000.0);
  EXPECT_EQ(events[4]["args"]["result"], "[-EINVAL]");
  EXPECT_EQ(events[4]["args"]["failed"], true);
  EXPECT_DOUBLE_EQ(events[6]["ts"].get<double>(), 9000.0);  // unfinished: ends with the session
}

// A child measured to end a little after its parent still nests inside it.
TEST(TraceEventView, ChildNeverOutlastsParent) {
  TestFuncs f = int_funcs({"parent", "child"});
  Session s = simfail_session(7, 0, 10000);
  s.trace = {
      entry_record(f, "parent", 0, 0, 1000),
      entry_record(f, "child", 1, 1, 1500),
      exit_record(f, "child", 2, 1, 1000, 0),
      exit_record(f, "parent", 3, 0, 1200, 0),
  };
  json events = session_trace_events(s, f.table);
  expect_well_formed(events);
  EXPECT_DOUBLE_EQ(events[4]["ts"].get<double>(), 2.5);
}

}  // namespace
}  // namespace retsnoop::test
