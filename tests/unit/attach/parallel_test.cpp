#include "attach/parallel.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <stdexcept>
#include <vector>

namespace retsnoop {
namespace {

TEST(ParallelFor, RunsEveryIndexOnce) {
  std::vector<std::atomic<int>> runs(1000);
  parallel_for(runs.size(), 8, [&](size_t i) { ++runs[i]; });
  for (auto& r : runs) EXPECT_EQ(r.load(), 1);
}

// Detaching relies on it: one probe that failed to come off must not keep the others on.
TEST(ParallelFor, ATaskThatThrowsDoesNotStopTheOthers) {
  std::vector<std::atomic<int>> runs(200);
  EXPECT_THROW(parallel_for(runs.size(), 4,
                            [&](size_t i) {
                              ++runs[i];
                              if (i % 50 == 7)
                                throw std::runtime_error("task " + std::to_string(i));
                            }),
               std::runtime_error);
  for (auto& r : runs) EXPECT_EQ(r.load(), 1);
}

// At a task limit no worker starts: the calling thread does all the work.
TEST(ParallelFor, NoThreadsStillRunsEverything) {
  setenv("RETSNOOP_TEST_FAULT", "thread-start", 1);
  std::vector<std::atomic<int>> runs(100);
  parallel_for(runs.size(), 8, [&](size_t i) { ++runs[i]; });
  unsetenv("RETSNOOP_TEST_FAULT");
  for (auto& r : runs) EXPECT_EQ(r.load(), 1);
}

}  // namespace
}  // namespace retsnoop
