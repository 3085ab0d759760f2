#include "output/session_report.h"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "format/example_sessions.h"
#include "temp_dir.h"
#include "util/error.h"

namespace retsnoop::test {
namespace {

using nlohmann::json;

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Formats the sessions as the printer thread would, then finishes the run.
std::string run(SessionReport& report, const std::vector<ExampleCase*>& cases) {
  std::string out;
  FormatOptions opts;
  opts.calltrace = true;
  for (ExampleCase* c : cases) {
    FormatContext ctx{c->funcs.table, c->symbolizer, opts, &report.host()};
    report.append(out, c->session, ctx, kMonoToRealNs);
  }
  return out + report.finish();
}

TEST(SessionReport, SummaryAtExitCountsOnlyFailures) {
  ExampleCase failing = percpu_array_case();
  ExampleCase again = percpu_array_case();
  ExampleCase succeeded = simple_obj_case();
  succeeded.session.is_error = false;
  SessionReport report({.json = true, .summary = true});
  std::string out = run(report, {&failing, &succeeded, &again});
  std::string last = out.substr(out.rfind("{\"summary\""));
  json summary = json::parse(last)["summary"];
  EXPECT_EQ(summary["final"], true);
  EXPECT_EQ(summary["sessions"], 2);
  EXPECT_EQ(summary["stacks"][0]["count"], 2);
  EXPECT_EQ(out.find("\"final\":false"), std::string::npos) << "no interval, no periodic summary";
}

// -C stacks.repeats=count: the repeats line names the printed session's fingerprint, the one its
// JSON carries, and the summary counts the repeats under it.
TEST(SessionReport, RepeatsCountUnderTheFingerprintOfTheirSession) {
  ExampleCase first = percpu_array_case();
  first.session.repeats_counted = true;
  SessionReport report({.json = true, .summary = true});
  FormatContext ctx{first.funcs.table, first.symbolizer, FormatOptions{}, &report.host()};
  std::string text;
  report.append(text, first.session, ctx, kMonoToRealNs);
  json printed = json::parse(text);
  RepeatGroup g{.first_id = first.session.id,
                .count = 41,
                .first_ns = first.session.end_ns,
                .last_ns = first.session.end_ns + 1000,
                .tasks = {{7, 7}}};
  json repeats = json::parse(report.repeats_text(g, kMonoToRealNs));
  EXPECT_EQ(repeats["type"], "repeats");
  EXPECT_EQ(repeats["count"], 41);
  EXPECT_EQ(repeats["fingerprint"], printed["fingerprint"]);
  json summary = json::parse(report.finish())["summary"];
  EXPECT_EQ(summary["sessions"], 42);
  EXPECT_EQ(summary["stacks"][0]["count"], 42);
  EXPECT_EQ(summary["stacks"][0]["fingerprint"], printed["fingerprint"]);
}

// A group is printed once: its session's signature is not kept after it.
TEST(SessionReport, RepeatsOfAnUnknownSessionPrintNothing) {
  SessionReport report({});
  EXPECT_EQ(report.repeats_text(RepeatGroup{.first_id = 9, .count = 3}, kMonoToRealNs), "");
}

TEST(SessionReport, NoSummaryWithoutTheOption) {
  ExampleCase failing = percpu_array_case();
  SessionReport report({});
  EXPECT_EQ(run(report, {&failing}).find("Summary"), std::string::npos);
}

// The trace file is one valid JSON document once the run is over, whatever came in between.
TEST(SessionReport, ExportFilesAreCompleteAfterFinish) {
  TempDir dir;
  ExampleCase traced = simple_obj_case();
  ExampleCase failing = percpu_array_case();
  SessionReport report(
      {.export_trace = dir.path() + "/trace.json", .export_folded = dir.path() + "/stacks.folded"});
  run(report, {&traced, &failing});
  json trace = json::parse(read_file(dir.path() + "/trace.json"));
  EXPECT_EQ(trace["displayTimeUnit"], "ns");
  ASSERT_GT(trace["traceEvents"].size(), 2u);
  EXPECT_EQ(trace["traceEvents"][0]["ph"], "M");
  std::string folded = read_file(dir.path() + "/stacks.folded");
  EXPECT_NE(folded.find(";__x64_sys_bpf;"), std::string::npos) << folded;
  EXPECT_EQ(folded.back(), '\n');
}

TEST(SessionReport, UnwritableExportIsAUserError) {
  EXPECT_THROW(SessionReport({.export_folded = "/nonexistent/dir/f"}), UserError);
}

}  // namespace
}  // namespace retsnoop::test
