// -A in the views: where a call's › lines go and what they line up with. Raw-register plans keep
// the rendered text simple ("arg0=0x..."); the renderer has tests of its own.
#include <gtest/gtest.h>

#include "discovery/probe_spec.h"

#include "example_sessions.h"
#include "format/call_args.h"
#include "format/calltrace_view.h"
#include "format/stack_view.h"
#include "format/text_columns.h"
#include "golden.h"
#include "trace_builder.h"
#include "view_text.h"

namespace retsnoop::test {
namespace {

// One call's capture as the decoder fills it: every register slot, no pointee data.
CapturedArgs raw_capture(uint32_t func_id, uint32_t seq, uint64_t arg0) {
  CapturedArgs c{.func_id = func_id, .call_seq = seq};
  c.slots.assign(RS_MAX_ARG_SLOTS, 0);
  c.slots[0] = arg0;
  c.lens.assign(RS_MAX_ARG_SLOTS, 0);
  c.data.resize(RS_MAX_ARG_SLOTS);
  return c;
}

struct ArgsSetup {
  std::vector<FuncArgs> plans;
  std::vector<FuncArgs> probe_plans;
  ArgRenderOptions opts;
  ArgsContext ctx{plans, probe_plans, opts};

  explicit ArgsSetup(const TestFuncs& funcs, ArgFmtMode mode = ArgFmtMode::Compact)
      : plans(funcs.table.size(), raw_func_args("no BTF")),
        probe_plans(2, raw_func_args("no BTF")) {
    opts.mode = mode;
  }
};

// Display column where needle starts in line.
size_t column_of(const std::string& line, const std::string& needle) {
  size_t at = line.find(needle);
  EXPECT_NE(at, std::string::npos) << needle << " not in: " << line;
  return display_width(line.substr(0, at));
}

size_t line_with(const std::vector<std::string>& lines, const std::string& needle) {
  for (size_t i = 0; i < lines.size(); ++i)
    if (lines[i].find(needle) != std::string::npos) return i;
  ADD_FAILURE() << "no line with " << needle;
  return 0;
}

TEST(CallArgsView, StackLinesSitUnderTheirFrameAlignedWithItsName) {
  ExampleCase c = percpu_array_case();
  for (size_t i = 0; i < c.session.calls.size(); ++i) c.session.calls[i].seq = 10 + i;
  uint32_t alloc = c.funcs.id("array_map_alloc");
  c.session.args[12] = raw_capture(alloc, 12, 0x1234);
  ArgsSetup a(c.funcs);
  FormatOptions fopts{.symb = SymbLevel::None};
  FormatContext ctx{c.funcs.table, c.symbolizer, fopts, nullptr, kNoProbes, nullptr, &a.ctx};
  std::vector<std::string> lines = split_lines(stack_text(c.session, ctx));
  size_t frame = line_with(lines, "array_map_alloc");
  ASSERT_LT(frame + 1, lines.size());
  EXPECT_EQ(lines[frame + 1].find_first_not_of(' '), column_of(lines[frame], "array_map_alloc"));
  EXPECT_NE(lines[frame + 1].find("› arg0=0x1234 arg1=0x0"), std::string::npos);
  // Only the captured call has a › line.
  EXPECT_EQ(std::count_if(lines.begin(), lines.end(),
                          [](const std::string& l) { return l.find("›") != std::string::npos; }),
            1);
}

TEST(CallArgsView, NoArgumentsWithoutTheContext) {
  ExampleCase c = percpu_array_case();
  c.session.args[0] = raw_capture(c.funcs.id("__x64_sys_bpf"), 0, 1);
  FormatOptions fopts{.symb = SymbLevel::None};
  std::string out = stack_text(c.session, {c.funcs.table, c.symbolizer, fopts});
  EXPECT_EQ(out.find("›"), std::string::npos);
}

std::vector<std::string> trace_rows(const Session& session, const TestFuncs& funcs,
                                    const ProbeTable& probes, ArgFmtMode mode) {
  ArgsSetup a(funcs, mode);
  FakeSymbolizer unused("simple_obj.sym");
  FormatOptions fopts{.calltrace = true};
  return split_lines(
      format_calltrace(session, {funcs.table, unused, fopts, nullptr, probes, nullptr, &a.ctx}));
}

struct TraceSetup {
  TestFuncs funcs;
  Session session;

  TraceSetup() {
    funcs.add("__x64_sys_bpf", RetKind::Int64);
    funcs.add("array_map_alloc_check", RetKind::Int32);
    TraceBuilder t(funcs);
    t.enter("__x64_sys_bpf").leaf("array_map_alloc_check", -22, 900).leave(-22, 5000);
    session.trace = t.records();
    session.trace[0].call_seq = 0;
    session.trace[1].call_seq = 1;
    session.args[0] = raw_capture(0, 0, 0xaa);
    session.args[1] = raw_capture(1, 1, 0xbb);
  }

  std::vector<std::string> rows(ArgFmtMode mode) {
    return trace_rows(session, funcs, kNoProbes, mode);
  }
};

// Compact: an entry row has no other columns, so its arguments follow the name; a leaf row's
// go under it, aligned with the name.
TEST(CallArgsView, CompactTraceEntryRowsCarryTheirArguments) {
  TraceSetup t;
  std::vector<std::string> rows = t.rows(ArgFmtMode::Compact);
  size_t entry = line_with(rows, "→ __x64_sys_bpf");
  EXPECT_NE(rows[entry].find("→ __x64_sys_bpf  › arg0=0xaa arg1=0x0"), std::string::npos);
  size_t leaf = line_with(rows, "↔ array_map_alloc_check");
  EXPECT_NE(rows[leaf].find("[-EINVAL]"), std::string::npos);
  ASSERT_LT(leaf + 1, rows.size());
  EXPECT_EQ(rows[leaf + 1].find_first_not_of(' '), column_of(rows[leaf], "array_map_alloc_check"));
  EXPECT_NE(rows[leaf + 1].find("› arg0=0xbb"), std::string::npos);
  // The arguments do not widen the function column: the header keeps its reference width.
  EXPECT_EQ(column_of(rows[0], "RESULT"), 50u);
}

TEST(CallArgsView, MultilineTraceArgumentsGoUnderTheRow) {
  TraceSetup t;
  std::vector<std::string> rows = t.rows(ArgFmtMode::Multiline);
  size_t entry = line_with(rows, "→ __x64_sys_bpf");
  EXPECT_EQ(rows[entry].find("›"), std::string::npos);
  ASSERT_LT(entry + 1, rows.size());
  EXPECT_EQ(rows[entry + 1], "  › arg0 = 0xaa");
  EXPECT_EQ(rows[entry + 2], "  › arg1 = 0x0");
}

TEST(CallArgsView, JsonOfACallAndOfUnknownOnes) {
  TraceSetup t;
  ArgsSetup a(t.funcs);
  std::optional<nlohmann::json> j = call_args_json(t.session, 1, &a.ctx);
  ASSERT_TRUE(j);
  EXPECT_EQ((*j)["arg0"], 0xbb);
  EXPECT_FALSE(call_args_json(t.session, 7, &a.ctx));   // no capture for that call
  EXPECT_FALSE(call_args_json(t.session, 1, nullptr));  // -A off
  t.session.args[1].func_id = 99;                       // an id from a corrupt record
  EXPECT_FALSE(call_args_json(t.session, 1, &a.ctx));
  EXPECT_TRUE(call_arg_lines(t.session, 1, &a.ctx).empty());
}

}  // namespace
}  // namespace retsnoop::test

namespace retsnoop::test {
namespace {

// A raw tracepoint hit's arguments are tied to its -T record by seq, not to any call's.
struct ProbeTraceSetup {
  TestFuncs funcs;
  Session session;
  ProbeTable probes{parse_probe_spec("tp:sched:sched_process_exec"),
                    parse_probe_spec("rawtp:sched_process_exec")};

  ProbeTraceSetup() {
    funcs.add("bprm_execve", RetKind::Int32);
    TraceBuilder t(funcs);
    t.enter("bprm_execve").probe(0).probe(1).leave(0, 5000);
    session.trace = t.records();
    session.trace[0].call_seq = 0;
    session.probe_args[session.trace[2].seq] = raw_capture(1, session.trace[2].seq, 0xcc);
  }

  std::vector<std::string> rows(ArgFmtMode mode) {
    return trace_rows(session, funcs, probes, mode);
  }
};

TEST(CallArgsView, CompactProbeRowCarriesItsArguments) {
  ProbeTraceSetup t;
  std::vector<std::string> rows = t.rows(ArgFmtMode::Compact);
  size_t tp = line_with(rows, "◎ tp:sched:sched_process_exec");
  EXPECT_EQ(rows[tp].find("›"), std::string::npos);  // nothing captured for it
  size_t raw = line_with(rows, "◎ rawtp:sched_process_exec");
  EXPECT_NE(rows[raw].find("◎ rawtp:sched_process_exec  › arg0=0xcc arg1=0x0"), std::string::npos);
}

TEST(CallArgsView, MultilineProbeArgumentsLineUpWithItsLabel) {
  ProbeTraceSetup t;
  std::vector<std::string> rows = t.rows(ArgFmtMode::Multiline);
  size_t raw = line_with(rows, "◎ rawtp:sched_process_exec");
  ASSERT_LT(raw + 1, rows.size());
  EXPECT_EQ(rows[raw + 1].find_first_not_of(' '), column_of(rows[raw], "rawtp:"));
  EXPECT_NE(rows[raw + 1].find("› arg0 = 0xcc"), std::string::npos);
}

TEST(CallArgsView, ProbeJsonByRecordSeq) {
  ProbeTraceSetup t;
  ArgsSetup a(t.funcs);
  uint32_t seq = t.session.trace[2].seq;
  std::optional<nlohmann::json> j = probe_args_json(t.session, seq, &a.ctx);
  ASSERT_TRUE(j);
  EXPECT_EQ((*j)["arg0"], 0xcc);
  EXPECT_FALSE(probe_args_json(t.session, t.session.trace[1].seq, &a.ctx));
  EXPECT_FALSE(call_args_json(t.session, seq, &a.ctx));  // calls and probes do not mix
  EXPECT_TRUE(probe_arg_lines(t.session, seq, nullptr).empty());
}

}  // namespace
}  // namespace retsnoop::test
