#include "discovery/line_plan.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "symbolize/fixture_util.h"
#include "util/error.h"

namespace retsnoop {
namespace {

LineTableRow row(uint64_t addr, int line, bool is_stmt = true, const char* file = "a.c") {
  return {addr, file, line, is_stmt, false};
}

LineTableRow end_of_sequence(uint64_t addr) { return {addr, "", 0, false, true}; }

std::vector<uint64_t> addrs(const std::vector<LineStart>& starts) {
  std::vector<uint64_t> out;
  out.reserve(starts.size());
  for (const LineStart& s : starts) out.push_back(s.addr);
  return out;
}

TEST(LineStarts, EachRunOfALineStartsOnce) {
  std::vector<LineTableRow> rows = {row(0x10, 1), row(0x14, 2), row(0x18, 2),
                                    row(0x1c, 3), row(0x20, 2), end_of_sequence(0x30)};
  EXPECT_EQ(addrs(line_starts(rows, {{0x10, 0x30}}, 0x10)),
            (std::vector<uint64_t>{0x14, 0x1c, 0x20}));
}

TEST(LineStarts, LastRowAtAnAddressIsInForce) {
  // At 0x14 the table says line 5, then line 2: line 2 runs there.
  std::vector<LineTableRow> rows = {row(0x10, 1), row(0x14, 5), row(0x14, 2), row(0x18, 2),
                                    end_of_sequence(0x20)};
  std::vector<LineStart> starts = line_starts(rows, {{0x10, 0x20}}, 0x10);
  ASSERT_EQ(starts.size(), 1u);
  EXPECT_EQ(starts[0].addr, 0x14u);
  EXPECT_EQ(starts[0].line, 2);
  EXPECT_EQ(starts[0].file, "a.c");
}

TEST(LineStarts, NonStatementRowsChangeTheLineButStartNothing) {
  std::vector<LineTableRow> rows = {row(0x10, 1), row(0x14, 2), row(0x18, 3, false), row(0x1c, 2),
                                    end_of_sequence(0x20)};
  EXPECT_EQ(addrs(line_starts(rows, {{0x10, 0x20}}, 0x10)), (std::vector<uint64_t>{0x14, 0x1c}));
}

TEST(LineStarts, OtherFileSameNumberIsAnotherLine) {
  std::vector<LineTableRow> rows = {row(0x10, 1), row(0x14, 7), row(0x18, 7, true, "b.h"),
                                    end_of_sequence(0x20)};
  EXPECT_EQ(addrs(line_starts(rows, {{0x10, 0x20}}, 0x10)), (std::vector<uint64_t>{0x14, 0x18}));
}

TEST(LineStarts, OnlyInsideTheRangesAndNoLineZero) {
  std::vector<LineTableRow> rows = {row(0x08, 9), row(0x10, 1),          row(0x14, 0),
                                    row(0x18, 2), end_of_sequence(0x20), row(0x40, 4),
                                    row(0x44, 5), end_of_sequence(0x48)};
  // A second range, like a .cold part, whose first row starts a line although the previous
  // sequence ended on another.
  EXPECT_EQ(addrs(line_starts(rows, {{0x10, 0x20}, {0x40, 0x48}}, 0x10)),
            (std::vector<uint64_t>{0x18, 0x40, 0x44}));
}

TEST(LineStarts, EndOfSequenceForgetsThePreviousLine) {
  std::vector<LineTableRow> rows = {row(0x10, 3), end_of_sequence(0x14), row(0x20, 3),
                                    end_of_sequence(0x24)};
  EXPECT_EQ(addrs(line_starts(rows, {{0x10, 0x30}}, 0x0)), (std::vector<uint64_t>{0x10, 0x20}));
}

// A function compiled at test time (-O2 -g, like the kernel): its probes lie inside it, past
// its entry, and cover the lines of its checks.
TEST(PlanLineProbes, FixtureFunctionLines) {
  auto image = Vmlinux::open(test::fixture_image("vmlinux"));
  Kallsyms ksyms = test::kallsyms_of_image("vmlinux");
  LinePlan plan = plan_line_probes({"fs_chec*"}, {image, test::kFakeKaslr}, ksyms);
  ASSERT_FALSE(plan.probes.empty());
  uint64_t start = test::symbol_addr(*image, "fs_check") + test::kFakeKaslr;
  std::set<int> lines;
  uint64_t prev = 0;
  for (const LineProbe& p : plan.probes) {
    EXPECT_EQ(p.func, "fs_check");
    EXPECT_EQ(p.func_addr, start);
    EXPECT_GT(p.addr, start);
    EXPECT_GT(p.addr, prev);  // ascending, no address twice
    prev = p.addr;
    EXPECT_EQ(p.file, "fs/fixture_fs.c");
    lines.insert(p.line);
  }
  const std::string src = "fs/fixture_fs.c";
  EXPECT_TRUE(lines.count(test::marker_line(src, "CHECK_EMPTY")));
  EXPECT_TRUE(lines.count(test::marker_line(src, "CHECK_KEY")));
  EXPECT_TRUE(lines.count(test::marker_line(src, "CHECK_OK")));
}

TEST(PlanLineProbes, TwoGlobsOfOneFunctionProbeItOnce) {
  auto image = Vmlinux::open(test::fixture_image("vmlinux"));
  Kallsyms ksyms = test::kallsyms_of_image("vmlinux");
  LinePlan one = plan_line_probes({"fs_check"}, {image, test::kFakeKaslr}, ksyms);
  LinePlan two = plan_line_probes({"fs_check", "fs_c*"}, {image, test::kFakeKaslr}, ksyms);
  EXPECT_EQ(one.probes.size(), two.probes.size());
}

TEST(PlanLineProbes, GlobWithoutFunctionIsAnError) {
  auto image = Vmlinux::open(test::fixture_image("vmlinux"));
  Kallsyms ksyms = test::kallsyms_of_image("vmlinux");
  try {
    plan_line_probes({"no_such_fn*"}, {image, test::kFakeKaslr}, ksyms);
    FAIL() << "no error";
  } catch (const UserError& e) {
    EXPECT_STREQ(e.what(),
                 "--line-trace 'no_such_fn*': no kernel function with source lines in the "
                 "vmlinux DWARF matches");
  }
}

}  // namespace
}  // namespace retsnoop
