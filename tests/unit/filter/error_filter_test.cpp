#include "filter/error_filter.h"

#include <gtest/gtest.h>

#include <cerrno>

namespace retsnoop {
namespace {

// Ids: 0 __x64_sys_bpf (Int64), 1 map_create (Int32), 2 array_map_alloc (Ptr),
// 3 array_map_alloc_check (Int32), 4 bpf_map_charge (Unsigned).
const FuncTable kErrnoFuncs = {
    {.name = "__x64_sys_bpf", .ret = RetKind::Int64},
    {.name = "map_create", .ret = RetKind::Int32},
    {.name = "array_map_alloc", .ret = RetKind::Ptr},
    {.name = "array_map_alloc_check", .ret = RetKind::Int32},
    {.name = "bpf_map_charge", .ret = RetKind::Unsigned},
};

constexpr int kNull = 0;

// A failed session whose chain returns these results, outermost first, by function id.
Session failed_chain(std::vector<int64_t> results) {
  Session s;
  s.is_error = true;
  for (uint32_t id = 0; id < results.size(); ++id)
    s.calls.push_back({.func_id = id, .res = results[id]});
  return s;
}

bool reports(const ErrorFilter& f, const Session& s) { return f.reports(s, kErrnoFuncs); }

TEST(ErrorFilter, NoListsReportEveryFailure) {
  EXPECT_TRUE(reports(ErrorFilter({}, {}), failed_chain({-E2BIG, -E2BIG})));
}

TEST(ErrorFilter, AllowListNeedsOneCallFailingWithAnAllowedErrno) {
  ErrorFilter einval({EINVAL}, {});
  EXPECT_TRUE(reports(einval, failed_chain({-EINVAL, -EINVAL, 0, -EINVAL})));
  EXPECT_FALSE(reports(einval, failed_chain({-E2BIG, -E2BIG, 0, -E2BIG})));
  // An errno the chain turned into another one on the way up still counts.
  EXPECT_TRUE(reports(einval, failed_chain({-EINVAL, -ENOMEM})));
}

TEST(ErrorFilter, DenyListDropsAChainContainingTheErrnoAnywhere) {
  ErrorFilter no_einval({}, {EINVAL});
  EXPECT_FALSE(reports(no_einval, failed_chain({-EINVAL, -EINVAL, 0, -EINVAL})));
  EXPECT_FALSE(reports(no_einval, failed_chain({-ENOMEM, -EINVAL})));
  EXPECT_TRUE(reports(no_einval, failed_chain({-E2BIG, -E2BIG})));
}

// -I: the outer calls of an interim session had not returned; their 0 is no NULL.
TEST(ErrorFilter, RunningCallsHaveNoResultYet) {
  Session s = failed_chain({0, 0, 0, -EINVAL});
  for (size_t i = 0; i < 3; ++i) s.calls[i].running = true;
  EXPECT_TRUE(reports(ErrorFilter({}, {kNull}), s));
  EXPECT_FALSE(reports(ErrorFilter({kNull}, {}), s));
}

TEST(ErrorFilter, DenyWinsOverAllow) {
  EXPECT_FALSE(reports(ErrorFilter({EINVAL}, {EINVAL}), failed_chain({-EINVAL})));
  EXPECT_FALSE(reports(ErrorFilter({EINVAL}, {ENOMEM}), failed_chain({-EINVAL, -ENOMEM})));
}

// Only failing results stand for an errno: a positive 22, or -22 from an unsigned function,
// is no EINVAL; NULL is, for functions returning pointers.
TEST(ErrorFilter, OnlyFailingResultsMatch) {
  ErrorFilter einval({EINVAL}, {});
  EXPECT_FALSE(reports(einval, failed_chain({EINVAL, -E2BIG})));
  EXPECT_FALSE(reports(einval, failed_chain({-E2BIG, -E2BIG, 0, 0, -EINVAL})));
  EXPECT_TRUE(reports(ErrorFilter({kNull}, {}), failed_chain({-ENOMEM, -ENOMEM, 0})));
  EXPECT_FALSE(reports(ErrorFilter({kNull}, {}), failed_chain({-ENOMEM, 0})));
}

TEST(ErrorFilter, StitchedLevelsCount) {
  Session s = failed_chain({-ENOMEM, -ENOMEM});
  s.calls.push_back({.func_id = 3, .res = -EINVAL, .stitched = true});
  EXPECT_TRUE(reports(ErrorFilter({EINVAL}, {}), s));
  EXPECT_FALSE(reports(ErrorFilter({}, {EINVAL}), s));
}

TEST(ErrorFilter, SessionsThatDidNotFailAlwaysPass) {
  Session ok = failed_chain({-EINVAL, 5});
  ok.is_error = false;
  EXPECT_TRUE(reports(ErrorFilter({ENOMEM}, {}), ok));
  EXPECT_TRUE(reports(ErrorFilter({}, {EINVAL}), ok));
}

}  // namespace
}  // namespace retsnoop
