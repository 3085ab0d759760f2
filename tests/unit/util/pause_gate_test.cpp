#include "util/pause_gate.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <latch>

namespace retsnoop {
namespace {

// Generous: only a gate that never opens waits this long.
constexpr auto kDeadline = std::chrono::seconds(30);

TEST(PauseGate, OpenGatePassesAtOnce) {
  PauseGate gate;
  auto task = std::async(std::launch::async, [&] { gate.checkpoint(); });
  EXPECT_EQ(task.wait_for(kDeadline), std::future_status::ready);
}

TEST(PauseGate, HeldGateWaitsForTheHoldToEnd) {
  PauseGate gate;
  std::atomic<bool> passed{false};
  std::latch at_gate(1);
  std::future<void> task;
  {
    PauseGate::Hold hold(gate);
    task = std::async(std::launch::async, [&] {
      at_gate.count_down();
      gate.checkpoint();
      passed = true;
    });
    at_gate.wait();
    EXPECT_FALSE(passed);  // nothing passes a held gate, however far the task got
    EXPECT_EQ(task.wait_for(std::chrono::seconds(0)), std::future_status::timeout);
  }
  ASSERT_EQ(task.wait_for(kDeadline), std::future_status::ready);
  EXPECT_TRUE(passed);
}

TEST(PauseGate, GateOpensAgainWhenTheHoldEnds) {
  PauseGate gate;
  { PauseGate::Hold hold(gate); }
  auto task = std::async(std::launch::async, [&] { gate.checkpoint(); });
  EXPECT_EQ(task.wait_for(kDeadline), std::future_status::ready);
}

}  // namespace
}  // namespace retsnoop
