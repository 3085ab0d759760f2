#include "format/json_view.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "example_sessions.h"
#include "fake_user_symbols.h"
#include "format/stack_fingerprint.h"
#include "golden.h"
#include "trace_builder.h"

namespace retsnoop::test {
namespace {

using nlohmann::json;

json format_json(ExampleCase& c, const FormatOptions& opts, const ProbeTable& probes = kNoProbes,
                 UserSymbols* user = nullptr) {
  use_utc();
  std::string line = format_session_json(
      c.session, {c.funcs.table, c.symbolizer, opts, nullptr, probes, user}, kMonoToRealNs);
  EXPECT_EQ(line.back(), '\n');
  EXPECT_EQ(line.find('\n'), line.size() - 1) << "one session, one line";
  return json::parse(line);
}

TEST(JsonView, HeaderFieldsMatchTheTextHeader) {
  ExampleCase c = percpu_array_case();
  json j = format_json(c, {});
  EXPECT_EQ(j["start"], "20:19:36.372607");
  EXPECT_EQ(j["end"], "20:19:36.372682");
  EXPECT_EQ(j["tid"], 8346);
  EXPECT_EQ(j["pid"], 8346);
  EXPECT_EQ(j["task_comm"], "simfail");
  EXPECT_EQ(j["error"], true);
  EXPECT_FALSE(j.contains("trace"));
  EXPECT_FALSE(j.contains("lbr"));
  EXPECT_FALSE(j.contains("user_stack"));
}

// -U: innermost first, symbol and source when known, the mapped file and offset when mapped.
TEST(JsonView, UserStack) {
  ExampleCase c = percpu_array_case();
  using U = FakeUserSymbols;
  c.session.ustack = {U::kCreateMap, U::kNoSymbol, U::kUnmapped};
  FakeUserSymbols user;
  json j = format_json(c, {}, kNoProbes, &user);
  EXPECT_EQ(j["user_stack_failed"], false);
  json stack = j["user_stack"];
  ASSERT_EQ(stack.size(), 3u);
  EXPECT_EQ(stack[0]["addr"], U::kCreateMap);
  EXPECT_EQ(stack[0]["symbol"], "create_map");
  EXPECT_EQ(stack[0]["offset"], 0x2f);
  EXPECT_EQ(stack[0]["binary"], "/home/u/loader");
  EXPECT_EQ(stack[0]["source"]["line"], 27);
  EXPECT_FALSE(stack[1].contains("symbol"));
  EXPECT_EQ(stack[1]["file_offset"], 0x271ca);
  EXPECT_EQ(stack[2]["source"], nullptr);
  EXPECT_FALSE(stack[2].contains("binary"));
}

// The same merge as the text view of the per-CPU array example: kernel frames first, then the
// traced calls that lost their frames ('!'), the last one stitched ('*').
TEST(JsonView, StackCarriesFramesCallsAndInlines) {
  ExampleCase c = percpu_array_case();
  json stack = format_json(c, {})["stack"];
  ASSERT_EQ(stack.size(), 6u);
  EXPECT_EQ(stack[0]["symbol"], "entry_SYSCALL_64_after_hwframe");
  EXPECT_EQ(stack[0]["offset"], 0x63);
  EXPECT_FALSE(stack[0].contains("traced"));
  EXPECT_EQ(stack[1]["inlines"][0]["name"], "do_syscall_x64");
  json sys_bpf = stack[2];
  EXPECT_EQ(sys_bpf["symbol"], "__x64_sys_bpf");
  EXPECT_EQ(sys_bpf["source"]["file"], "kernel/bpf/syscall.c");
  EXPECT_EQ(sys_bpf["source"]["line"], 5067);
  EXPECT_EQ(sys_bpf["traced"]["result"], "[-ENOMEM]");
  EXPECT_EQ(sys_bpf["traced"]["result_raw"], -12);
  EXPECT_EQ(sys_bpf["traced"]["duration_ns"], 73456);
  json deepest = stack[5];
  EXPECT_FALSE(deepest["kernel_frame"]);
  EXPECT_EQ(deepest["traced"]["function"], "bpf_map_alloc_percpu");
  EXPECT_EQ(deepest["traced"]["result"], "[NULL]");
  EXPECT_TRUE(deepest["traced"]["stitched"]);
  EXPECT_TRUE(deepest["traced"]["failed"]);
}

// What a log store groups sessions of many hosts by.
TEST(JsonView, CarriesHostAndFingerprint) {
  ExampleCase c = percpu_array_case();
  FormatOptions opts;
  HostIdentity host{"web-1", "6.12.9-amd64", "6f1c0c52-aaaa-bbbb-cccc-444455556666"};
  FormatContext ctx{c.funcs.table, c.symbolizer, opts, &host};
  json j = json::parse(format_session_json(c.session, ctx, kMonoToRealNs));
  EXPECT_EQ(j["host"], "web-1");
  EXPECT_EQ(j["kernel_release"], "6.12.9-amd64");
  EXPECT_EQ(j["boot_id"], host.boot_id);
  EXPECT_EQ(j["fingerprint"], stack_fingerprint(stack_signature(c.session, ctx)));
  EXPECT_FALSE(format_json(c, opts).contains("host")) << "no host named, none printed";
}

TEST(JsonView, KallsymsOnlyLevelLeavesSourceOut) {
  ExampleCase c = percpu_array_case();
  json stack = format_json(c, {.symb = SymbLevel::None})["stack"];
  EXPECT_FALSE(stack[2].contains("source"));
  EXPECT_FALSE(stack[1].contains("inlines"));
}

TEST(JsonView, CallTraceRecordsWithResults) {
  ExampleCase c = simple_obj_case();
  json j = format_json(c, {.calltrace = true});
  json trace = j["trace"];
  ASSERT_FALSE(trace.empty());
  EXPECT_EQ(trace.front()["event"], "entry");
  EXPECT_EQ(trace.front()["function"], "bpf_prog_load");
  EXPECT_EQ(trace.back()["event"], "exit");
  EXPECT_EQ(trace.back()["function"], "bpf_prog_load");
  EXPECT_EQ(trace.back()["result"], "[5]");
  EXPECT_EQ(j["trace_lost"], 0);
}

// Probe records carry their kind and name as the spec writes them, and their time; an id outside
// the table degrades to a name without kind.
TEST(JsonView, ProbeRecordsInTheCallTrace) {
  ExampleCase c = simple_obj_case();
  ProbeTable probes = {parse_probe_spec("kprobe:bpf_check+0x10"),
                       parse_probe_spec("tp:bpf:bpf_prog_load"),
                       parse_probe_spec("rawtp:bpf_test")};
  TraceBuilder t(c.funcs);
  t.enter("bpf_prog_load").probe(1).enter("bpf_check").probe(0).leave(0, 900);
  t.probe(2).probe(7).leave(5, 2000);
  c.session.trace = t.records();
  json trace = format_json(c, {.calltrace = true}, probes)["trace"];
  EXPECT_TRUE(matches_golden(trace.dump(1) + "\n", "json_trace_probes.txt"));
}

TEST(JsonView, LbrRecordsOldestFirst) {
  ExampleCase c = lbr_any_case();
  json lbr = format_json(c, {.lbr = true})["lbr"];
  ASSERT_EQ(lbr.size(), c.session.lbr.size());
  EXPECT_EQ(lbr[0]["from"]["addr"], c.session.lbr[0].from);
  EXPECT_TRUE(lbr[0]["to"].contains("symbol"));
}

TEST(JsonView, InvalidUtf8InCommsIsReplacedNotFatal) {
  ExampleCase c = percpu_array_case();
  c.session.task_comm = "bad\xff";
  EXPECT_NO_THROW(format_json(c, {}));
}

// The JSON line itself is plain ASCII: control bytes and C1 controls (U+009B) are \u escapes,
// and the comm parses back to what the process set.
TEST(JsonView, CommsWithControlBytesStayEscaped) {
  ExampleCase c = percpu_array_case();
  c.session.task_comm = "e\"v\\i\nl\x1b[1m";
  c.session.proc_comm =
      "c1\xc2\x9b"
      "2J";
  use_utc();
  std::string line =
      format_session_json(c.session, {c.funcs.table, c.symbolizer, {}}, kMonoToRealNs);
  line.pop_back();
  for (unsigned char ch : line) EXPECT_TRUE(ch >= 0x20 && ch < 0x7f) << int(ch);
  EXPECT_NE(line.find(R"("task_comm":"e\"v\\i\nl\u001b[1m")"), std::string::npos) << line;
  json j = json::parse(line);
  EXPECT_EQ(j["task_comm"], c.session.task_comm);
  EXPECT_EQ(j["proc_comm"], c.session.proc_comm);
}

}  // namespace
}  // namespace retsnoop::test
