#include "format/lbr_view.h"

#include <gtest/gtest.h>

#include "example_sessions.h"
#include "golden.h"

namespace retsnoop::test {
namespace {

std::string lbr(ExampleCase& c, const FormatOptions& opts) {
  return format_lbr(c.session, {c.funcs.table, c.symbolizer, opts});
}

std::vector<std::string> labels(const std::string& text) {
  std::vector<std::string> out;
  for (const std::string& line : split_lines(text))
    if (line.starts_with("[#")) out.push_back(line.substr(0, 5));
  return out;
}

// The reference records #31..#18 are covered by the session golden; these cover what it cannot.
TEST(LbrView, NoRelevantRecordShowsAllAfterANotice) {
  ExampleCase c = lbr_any_case();
  c.session.calls.pop_back();  // deepest traced call is now __sys_bpf, absent from the records
  std::string out = lbr(c, {.symb = SymbLevel::None, .lbr_max_count = 5});
  EXPECT_TRUE(matches_golden(out, "lbr_unfiltered.txt"));
}

TEST(LbrView, MaxCountKeepsTheNewestRelevantRecords) {
  ExampleCase c = lbr_any_case();
  std::string out = lbr(c, {.lbr_max_count = 3});
  EXPECT_EQ(labels(out), (std::vector<std::string>{"[#20]", "[#19]", "[#18]"}));
  EXPECT_EQ(split_lines(out).size(), 4u);  // #20 has an inline continuation line
}

TEST(LbrView, WithoutLimitEveryRecordUpToTheNewestRelevantOneIsShown) {
  ExampleCase c = lbr_any_case();
  std::vector<std::string> shown = labels(lbr(c, {}));
  ASSERT_EQ(shown.size(), 14u);
  EXPECT_EQ(shown.front(), "[#31]");
  EXPECT_EQ(shown.back(), "[#18]");
}

// stacks.unfiltered and --debug full-lbr: the records newer than the last relevant one too, and
// no notice, as every record was asked for.
TEST(LbrView, UnfilteredShowsEveryRecord) {
  ExampleCase c = lbr_any_case();
  std::string out = lbr(c, {.unfiltered_lbr = true});
  std::vector<std::string> shown = labels(out);
  ASSERT_EQ(shown.size(), c.session.lbr.size());
  EXPECT_EQ(shown.front(), "[#31]");
  EXPECT_EQ(shown.back(), "[#00]");
  EXPECT_EQ(out.find("No relevant LBR data"), std::string::npos);
  EXPECT_EQ(labels(lbr(c, {.lbr_max_count = 2, .unfiltered_lbr = true})),
            (std::vector<std::string>{"[#01]", "[#00]"}));
}

TEST(LbrView, BranchAddressesAreNotReturnAddresses) {
  ExampleCase c = lbr_any_case();
  lbr(c, {});
  ASSERT_EQ(c.symbolizer.queries.size(), 2 * c.session.lbr.size());
  for (const auto& [addr, is_return_addr] : c.symbolizer.queries) EXPECT_FALSE(is_return_addr);
}

TEST(LbrView, RawAddressesPrecedeBothSides) {
  ExampleCase c = lbr_any_case();
  std::string out = lbr(c, {.symb = SymbLevel::None, .emit_addrs = true, .lbr_max_count = 1});
  EXPECT_EQ(out,
            "[#18] 0xffffffff8128c074 array_map_alloc_check+0x74  ->  "
            "0xffffffff810b2c10 __kretprobe_trampoline+0x0\n");
}

TEST(LbrView, NothingWithoutRecords) {
  ExampleCase c = percpu_array_case();
  EXPECT_EQ(lbr(c, {}), "");
}

}  // namespace
}  // namespace retsnoop::test
