#include "filter/error_filter.h"

#include <gtest/gtest.h>

namespace retsnoop {
namespace {

// Ids: 0 __x64_sys_bpf (Int64), 1 map_create (Int32), 2 array_map_alloc (Ptr),
// 3 array_map_alloc_check (Int32), 4 bpf_map_charge (Unsigned).
const FuncTable kFuncs = {
    {.name = "__x64_sys_bpf", .ret = RetKind::Int64},
    {.name = "map_create", .ret = RetKind::Int32},
    {.name = "array_map_alloc", .ret = RetKind::Ptr},
    {.name = "array_map_alloc_check", .ret = RetKind::Int32},
    {.name = "bpf_map_charge", .ret = RetKind::Unsigned},
};

constexpr int kEinval = 22, kE2big = 7, kEnomem = 12, kNull = 0;

// A failed session whose chain returns these results, outermost first, by function id.
Session failed_chain(std::vector<int64_t> results) {
  Session s;
  s.is_error = true;
  for (uint32_t id = 0; id < results.size(); ++id)
    s.calls.push_back({.func_id = id, .res = results[id]});
  return s;
}

bool reports(const ErrorFilter& f, const Session& s) { return f.reports(s, kFuncs); }

TEST(ErrorFilter, NoListsReportEveryFailure) {
  EXPECT_TRUE(reports(ErrorFilter({}, {}), failed_chain({-kE2big, -kE2big})));
}

TEST(ErrorFilter, AllowListNeedsOneCallFailingWithAnAllowedErrno) {
  ErrorFilter einval({kEinval}, {});
  EXPECT_TRUE(reports(einval, failed_chain({-kEinval, -kEinval, 0, -kEinval})));
  EXPECT_FALSE(reports(einval, failed_chain({-kE2big, -kE2big, 0, -kE2big})));
  // An errno the chain turned into another one on the way up still counts.
  EXPECT_TRUE(reports(einval, failed_chain({-kEinval, -kEnomem})));
}

TEST(ErrorFilter, DenyListDropsAChainContainingTheErrnoAnywhere) {
  ErrorFilter no_einval({}, {kEinval});
  EXPECT_FALSE(reports(no_einval, failed_chain({-kEinval, -kEinval, 0, -kEinval})));
  EXPECT_FALSE(reports(no_einval, failed_chain({-kEnomem, -kEinval})));
  EXPECT_TRUE(reports(no_einval, failed_chain({-kE2big, -kE2big})));
}

// -I: the outer calls of an interim session had not returned; their 0 is no NULL.
TEST(ErrorFilter, RunningCallsHaveNoResultYet) {
  Session s = failed_chain({0, 0, 0, -kEinval});
  for (size_t i = 0; i < 3; ++i) s.calls[i].running = true;
  EXPECT_TRUE(reports(ErrorFilter({}, {kNull}), s));
  EXPECT_FALSE(reports(ErrorFilter({kNull}, {}), s));
}

TEST(ErrorFilter, DenyWinsOverAllow) {
  EXPECT_FALSE(reports(ErrorFilter({kEinval}, {kEinval}), failed_chain({-kEinval})));
  EXPECT_FALSE(reports(ErrorFilter({kEinval}, {kEnomem}), failed_chain({-kEinval, -kEnomem})));
}

// Only failing results stand for an errno: a positive 22, or -22 from an unsigned function,
// is no EINVAL; NULL is, for functions returning pointers.
TEST(ErrorFilter, OnlyFailingResultsMatch) {
  ErrorFilter einval({kEinval}, {});
  EXPECT_FALSE(reports(einval, failed_chain({kEinval, -kE2big})));
  EXPECT_FALSE(reports(einval, failed_chain({-kE2big, -kE2big, 0, 0, -kEinval})));
  EXPECT_TRUE(reports(ErrorFilter({kNull}, {}), failed_chain({-kEnomem, -kEnomem, 0})));
  EXPECT_FALSE(reports(ErrorFilter({kNull}, {}), failed_chain({-kEnomem, 0})));
}

TEST(ErrorFilter, StitchedLevelsCount) {
  Session s = failed_chain({-kEnomem, -kEnomem});
  s.calls.push_back({.func_id = 3, .res = -kEinval, .stitched = true});
  EXPECT_TRUE(reports(ErrorFilter({kEinval}, {}), s));
  EXPECT_FALSE(reports(ErrorFilter({}, {kEinval}), s));
}

TEST(ErrorFilter, SessionsThatDidNotFailAlwaysPass) {
  Session ok = failed_chain({-kEinval, 5});
  ok.is_error = false;
  EXPECT_TRUE(reports(ErrorFilter({kEnomem}, {}), ok));
  EXPECT_TRUE(reports(ErrorFilter({}, {kEinval}), ok));
}

}  // namespace
}  // namespace retsnoop
