#include "events/repeat_group.h"

#include <gtest/gtest.h>

namespace retsnoop {
namespace {

TEST(RepeatGroup, FromMapEntry) {
  rs_repeat r{};
  r.first_id = 3;
  r.count = 12;
  r.first_ns = 100;
  r.last_ns = 200;
  r.task_cnt = 2;
  r.tids[0] = 10, r.pids[0] = 10;
  r.tids[1] = 11, r.pids[1] = 10;
  RepeatGroup g = repeat_group(r);
  EXPECT_EQ(g.first_id, 3u);
  EXPECT_EQ(g.count, 12u);
  EXPECT_EQ(g.first_ns, 100u);
  EXPECT_EQ(g.last_ns, 200u);
  EXPECT_EQ(g.tasks, (std::vector<RepeatTask>{{10, 10}, {11, 10}}));
  EXPECT_FALSE(g.more_tasks);
}

// A full list may have left tasks out; a count beyond the array (a torn read) is clamped.
TEST(RepeatGroup, FullTaskListMayLeaveTasksOut) {
  rs_repeat r{};
  r.count = 100;
  r.task_cnt = RS_REPEAT_TASKS + 3;
  RepeatGroup g = repeat_group(r);
  EXPECT_EQ(g.tasks.size(), size_t(RS_REPEAT_TASKS));
  EXPECT_TRUE(g.more_tasks);
}

// Sessions end in the current interval; one that read the previous interval just before it
// advanced may still be counting there. Older ones are final.
TEST(RepeatGroup, OnlyIntervalsBeforeThePreviousAreSettled) {
  EXPECT_FALSE(repeat_interval_settled(5, 5));
  EXPECT_FALSE(repeat_interval_settled(4, 5));
  EXPECT_TRUE(repeat_interval_settled(3, 5));
  EXPECT_FALSE(repeat_interval_settled(0, 1));
  EXPECT_TRUE(repeat_interval_settled(0, 2));
}

}  // namespace
}  // namespace retsnoop
