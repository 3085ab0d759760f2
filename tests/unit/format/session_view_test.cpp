#include "format/session_view.h"

#include <gtest/gtest.h>

#include "golden.h"
#include "seed_sessions.h"

namespace retsnoop::test {
namespace {

std::string format(SeedCase& c, const FormatOptions& opts) {
  use_utc();
  return format_session(c.session, {c.funcs.table, c.symbolizer, opts}, kMonoToRealNs);
}

TEST(SessionView, PerCpuArraySeedExample) {
  SeedCase c = percpu_array_case();
  EXPECT_TRUE(matches_golden(format(c, {}), "percpu_array_session.txt"));
}

TEST(SessionView, SimpleObjSeedExampleWithCallTrace) {
  SeedCase c = simple_obj_case();
  EXPECT_TRUE(matches_golden(format(c, {.calltrace = true}), "simple_obj_session.txt"));
}

TEST(SessionView, LbrSeedExample) {
  SeedCase c = lbr_any_case();
  EXPECT_TRUE(matches_golden(format(c, {.lbr = true}), "lbr_any_session.txt"));
}

TEST(SessionView, ViewsFollowTheOptionsInFixedOrder) {
  SeedCase c = simple_obj_case();
  c.session.lbr = lbr_any_records();
  std::string out = format(c, {.calltrace = true, .lbr = true});
  size_t table = out.find("FUNCTION CALL TRACE");
  size_t lbr = out.find("[#31]");
  size_t stack = out.find("entry_SYSCALL_64_after_hwframe+0x63");
  ASSERT_NE(table, std::string::npos);
  ASSERT_NE(lbr, std::string::npos);
  EXPECT_LT(table, lbr);
  EXPECT_LT(lbr, stack);
}

TEST(SessionView, NoEmptyViewForASessionWithoutBranchRecords) {
  SeedCase c = percpu_array_case();
  EXPECT_EQ(format(c, {.lbr = true}), format(c, {}));
}

}  // namespace
}  // namespace retsnoop::test
