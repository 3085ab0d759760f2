#include "format/session_view.h"

#include <gtest/gtest.h>

#include "example_sessions.h"
#include "golden.h"

namespace retsnoop::test {
namespace {

TEST(SessionView, PerCpuArrayExample) {
  ExampleCase c = percpu_array_case();
  EXPECT_TRUE(matches_golden(format_example(c, {}), "percpu_array_session.txt"));
}

TEST(SessionView, SimpleObjExampleWithCallTrace) {
  ExampleCase c = simple_obj_case();
  EXPECT_TRUE(matches_golden(format_example(c, {.calltrace = true}), "simple_obj_session.txt"));
}

TEST(SessionView, LbrExample) {
  ExampleCase c = lbr_any_case();
  EXPECT_TRUE(matches_golden(format_example(c, {.lbr = true}), "lbr_any_session.txt"));
}

TEST(SessionView, ViewsFollowTheOptionsInFixedOrder) {
  ExampleCase c = simple_obj_case();
  c.session.lbr = lbr_any_records();
  std::string out = format_example(c, {.calltrace = true, .lbr = true});
  size_t table = out.find("FUNCTION CALL TRACE");
  size_t lbr = out.find("[#31]");
  size_t stack = out.find("entry_SYSCALL_64_after_hwframe+0x63");
  ASSERT_NE(table, std::string::npos);
  ASSERT_NE(lbr, std::string::npos);
  EXPECT_LT(table, lbr);
  EXPECT_LT(lbr, stack);
}

TEST(SessionView, InterimSessionIsMarkedInItsHeader) {
  ExampleCase c = percpu_array_case();
  c.session.interim = true;
  std::string header =
      "20:19:36.372607 -> 20:19:36.372682 TID/PID 8346/8346 (simfail/simfail) [interim]:\n";
  EXPECT_EQ(format_example(c, {}).substr(0, header.size()), header);
}

TEST(SessionView, LostRecordsAndFailedStackCaptureAreSaidAfterTheViews) {
  ExampleCase c = percpu_array_case();
  c.session.incomplete = true;
  c.session.kstack_failed = true;
  c.session.kstack.clear();
  std::string out = format_example(c, {});
  std::string tail =
      "!*   2us [NULL]     bpf_map_alloc_percpu\n"
      "WARNING: records of this session were lost (BPF ring buffer full): the views above are "
      "incomplete\n"
      "WARNING: the kernel stack could not be captured\n\n\n";
  ASSERT_GE(out.size(), tail.size());
  EXPECT_EQ(out.substr(out.size() - tail.size()), tail);
}

TEST(SessionView, NoEmptyViewForASessionWithoutBranchRecords) {
  ExampleCase c = percpu_array_case();
  EXPECT_EQ(format_example(c, {.lbr = true}), format_example(c, {}));
}

}  // namespace
}  // namespace retsnoop::test
