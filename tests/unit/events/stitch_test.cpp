#include "events/stitch.h"

#include <gtest/gtest.h>

namespace retsnoop {
namespace {

rs_frame f(uint32_t id, uint32_t seq, int64_t res) { return rs_frame{id, seq, 0, 0, res}; }

// The seeds' per-CPU array case: bpf_map_alloc_percpu returned NULL inside array_map_alloc, a
// sibling call then overwrote that level, and array_map_alloc itself failed afterwards.
TEST(Stitch, FailedSubChainBelowTheReportedChainIsAppended) {
  std::vector<rs_frame> frames{f(0, 0, -12), f(1, 1, -12), f(2, 2, -12)};
  std::vector<rs_frame> saved{f(0, 0, 0), f(1, 1, 0), f(2, 2, 0), f(3, 3, 0)};
  auto calls = stitch_chains(frames, saved);
  ASSERT_EQ(calls.size(), 4u);
  EXPECT_FALSE(calls[2].stitched);
  EXPECT_TRUE(calls[3].stitched);
  EXPECT_EQ(calls[3].func_id, 3u);
}

TEST(Stitch, DeeperSavedLevelsAreAllAppended) {
  std::vector<rs_frame> frames{f(0, 0, -1)};
  std::vector<rs_frame> saved{f(0, 0, 0), f(4, 3, -1), f(5, 4, 0)};
  auto calls = stitch_chains(frames, saved);
  ASSERT_EQ(calls.size(), 3u);
  EXPECT_TRUE(calls[1].stitched && calls[2].stitched);
}

TEST(Stitch, ChainUnderAnotherCallIsNotStitched) {
  // Same function at the deepest reported level, but another call of it (other seq).
  std::vector<rs_frame> frames{f(0, 0, -1), f(1, 5, -1)};
  std::vector<rs_frame> saved{f(0, 0, 0), f(1, 1, 0), f(2, 2, 0)};
  EXPECT_EQ(stitch_chains(frames, saved).size(), 2u);
}

TEST(Stitch, SavedChainNotDeeperIsIgnored) {
  std::vector<rs_frame> frames{f(0, 0, -1), f(1, 1, -1)};
  std::vector<rs_frame> saved{f(0, 0, 0), f(1, 1, 0)};
  EXPECT_EQ(stitch_chains(frames, saved).size(), 2u);
  EXPECT_EQ(stitch_chains(frames, {}).size(), 2u);
}

}  // namespace
}  // namespace retsnoop
