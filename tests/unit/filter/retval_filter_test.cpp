#include "filter/retval_filter.h"

#include <gtest/gtest.h>

#include <cerrno>

#include "filter/session_filter.h"

namespace retsnoop {
namespace {

// Entry functions by id: 0 __x64_sys_bpf (Int64), 1 map_create (Int32), 2 bpf_map_alloc (Ptr),
// 3 bpf_fn_void (Void), 4 bpf_fn_bool (Bool), 5 array_map_alloc_check (Int32).
const FuncTable kRetvalFuncs = {
    {.name = "__x64_sys_bpf", .ret = RetKind::Int64},
    {.name = "map_create", .ret = RetKind::Int32},
    {.name = "bpf_map_alloc", .ret = RetKind::Ptr},
    {.name = "bpf_fn_void", .ret = RetKind::Void},
    {.name = "bpf_fn_bool", .ret = RetKind::Bool},
    {.name = "array_map_alloc_check", .ret = RetKind::Int32},
};

// A session opened by entry function `entry` returning res, above a deeper call failing with
// -EINVAL.
Session session(uint32_t entry, int64_t res) {
  Session s;
  s.is_error = true;
  s.calls.push_back({.func_id = entry, .res = res});
  s.calls.push_back({.func_id = 5, .res = -EINVAL});
  return s;
}

bool retval_filter_reports(const RetvalFilter& f, const Session& s) {
  return f.reports(s, kRetvalFuncs);
}

RetvalRange one(int64_t v) { return {v, v}; }

TEST(RetvalFilter, NoRangesReportEverySession) {
  EXPECT_TRUE(retval_filter_reports(RetvalFilter({}, {}), session(0, -EINVAL)));
  EXPECT_TRUE(retval_filter_reports(RetvalFilter({}, {}), session(3, 0)));
}

TEST(RetvalFilter, AllowJudgesTheEntryCallOnly) {
  RetvalFilter einval({one(-EINVAL)}, {});
  EXPECT_TRUE(retval_filter_reports(einval, session(0, -EINVAL)));
  // A deeper -EINVAL the entry turned into -ENOMEM does not count.
  EXPECT_FALSE(retval_filter_reports(einval, session(0, -ENOMEM)));
}

TEST(RetvalFilter, DenyDropsTheEntryResult) {
  RetvalFilter no_einval({}, {one(-EINVAL)});
  EXPECT_FALSE(retval_filter_reports(no_einval, session(0, -EINVAL)));
  EXPECT_TRUE(retval_filter_reports(no_einval, session(0, -E2BIG)));
}

TEST(RetvalFilter, DenyWinsOverAllow) {
  RetvalFilter f({{-4095, -1}}, {one(-EINVAL)});
  EXPECT_FALSE(retval_filter_reports(f, session(0, -EINVAL)));
  EXPECT_TRUE(retval_filter_reports(f, session(0, -ENOMEM)));
}

TEST(RetvalFilter, RangesIncludeBothBounds) {
  RetvalFilter f({{0, 10}}, {});
  EXPECT_TRUE(retval_filter_reports(f, session(0, 0)));
  EXPECT_TRUE(retval_filter_reports(f, session(0, 10)));
  EXPECT_FALSE(retval_filter_reports(f, session(0, 11)));
  EXPECT_FALSE(retval_filter_reports(f, session(0, -1)));
}

// Results are read in the width of the entry's type, as they are printed.
TEST(RetvalFilter, ResultsAreReadInTheirTypesWidth) {
  // An int's upper register bits are garbage: the low 32 bits, sign-extended, are -22.
  EXPECT_TRUE(
      retval_filter_reports(RetvalFilter({one(-EINVAL)}, {}), session(1, 0x12345678ffffffea)));
  EXPECT_TRUE(retval_filter_reports(RetvalFilter({one(1)}, {}), session(4, 0x7701)));
  EXPECT_TRUE(retval_filter_reports(RetvalFilter({one(0)}, {}), session(2, 0)));  // NULL
  EXPECT_TRUE(
      retval_filter_reports(RetvalFilter({one(-ENOMEM)}, {}), session(2, -ENOMEM)));  // ERR_PTR
}

TEST(RetvalFilter, NoResultLiesInNoRange) {
  Session running = session(0, 0);
  running.calls.front().running = true;  // -I: the entry call had not returned
  EXPECT_FALSE(retval_filter_reports(RetvalFilter({one(0)}, {}), running));
  EXPECT_TRUE(retval_filter_reports(RetvalFilter({}, {one(0)}), running));
  EXPECT_FALSE(retval_filter_reports(RetvalFilter({one(0)}, {}), session(3, 0)));  // void
  EXPECT_TRUE(retval_filter_reports(RetvalFilter({}, {one(0)}), session(3, 0)));
}

// Successful sessions (-S) are judged too: that is how "only successes" is asked for.
TEST(RetvalFilter, SessionsThatDidNotFailAreJudgedToo) {
  Session ok = session(0, 5);
  ok.is_error = false;
  EXPECT_TRUE(retval_filter_reports(RetvalFilter({{0, INT64_MAX}}, {}), ok));
  EXPECT_FALSE(retval_filter_reports(RetvalFilter({}, {{0, INT64_MAX}}), ok));
}

// -x/-X judge every failure in the stack, the retval filters the entry result: both must pass.
TEST(SessionFilter, ErrorAndRetvalFiltersMustBothPass) {
  Session s = session(0, -ENOMEM);  // the entry fails with -ENOMEM above a deeper -EINVAL
  auto filter = [](std::vector<int> allow_errors, std::vector<RetvalRange> allow_retvals) {
    return SessionFilter{ErrorFilter(std::move(allow_errors), {}),
                         RetvalFilter(std::move(allow_retvals), {})};
  };
  EXPECT_TRUE(filter({22}, {one(-ENOMEM)}).reports(s, kRetvalFuncs));
  EXPECT_FALSE(filter({22}, {one(-EINVAL)}).reports(s, kRetvalFuncs));
  EXPECT_FALSE(filter({7}, {one(-ENOMEM)}).reports(s, kRetvalFuncs));
}

}  // namespace
}  // namespace retsnoop
