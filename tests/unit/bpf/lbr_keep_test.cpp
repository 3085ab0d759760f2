// Which exit's branch snapshot a session keeps (src/bpf/lbr_keep.h, the same code the kernel
// runs), driven with the steps rs_chain_exit() returns for real call sequences.
#include "bpf/lbr_keep.h"

#include <gtest/gtest.h>

#include <cerrno>

namespace retsnoop {
namespace {

constexpr rs_s64 kFullSnapshot = RS_MAX_LBR * sizeof(rs_lbr_entry);

// a() calls b(), which fails; a() fails too. Returns the steps of b's and a's exits.
struct TwoLevelFailure {
  int inner_steps;
  int outer_steps;
};

TwoLevelFailure fail_twice(bool success_stacks = false) {
  rs_chain c{};
  rs_chain_enter(&c, 'a', 0);
  rs_chain_enter(&c, 'b', 10);
  int inner = rs_chain_exit(&c, 'b', -EINVAL, true, success_stacks, 20);
  int outer = rs_chain_exit(&c, 'a', -EINVAL, true, success_stacks, 30);
  return {inner, outer};
}

TEST(LbrKeep, TheDeepestFailureKeepsItsSnapshot) {
  TwoLevelFailure f = fail_twice();
  EXPECT_EQ(rs_lbr_keep_cnt(f.inner_steps, kFullSnapshot), static_cast<rs_u32>(RS_MAX_LBR));
  // The caller's failure only passes the error on: b's records stay.
  EXPECT_EQ(rs_lbr_keep_cnt(f.outer_steps, kFullSnapshot), 0u);
}

TEST(LbrKeep, SuccessfulReturnsKeepNothing) {
  rs_chain c{};
  rs_chain_enter(&c, 'a', 0);
  rs_chain_enter(&c, 'b', 10);
  EXPECT_EQ(rs_lbr_keep_cnt(rs_chain_exit(&c, 'b', 0, false, false, 20), kFullSnapshot), 0u);
}

// -S: the deepest call's return is captured even when it succeeds.
TEST(LbrKeep, SuccessStacksKeepTheDeepestCall) {
  rs_chain c{};
  rs_chain_enter(&c, 'a', 0);
  rs_chain_enter(&c, 'b', 10);
  EXPECT_EQ(rs_lbr_keep_cnt(rs_chain_exit(&c, 'b', 0, false, true, 20), kFullSnapshot),
            static_cast<rs_u32>(RS_MAX_LBR));
}

TEST(LbrKeep, CountsWhatTheSnapshotHolds) {
  int capture = fail_twice().inner_steps;
  EXPECT_EQ(rs_lbr_keep_cnt(capture, 3 * sizeof(rs_lbr_entry)), 3u);
  EXPECT_EQ(rs_lbr_keep_cnt(capture, 0), 0u);
  // No branch-stack PMU: bpf_get_branch_snapshot() fails with -ENOENT.
  EXPECT_EQ(rs_lbr_keep_cnt(capture, -ENOENT), 0u);
  EXPECT_EQ(rs_lbr_keep_cnt(capture, 2 * kFullSnapshot), static_cast<rs_u32>(RS_MAX_LBR));
}

}  // namespace
}  // namespace retsnoop
