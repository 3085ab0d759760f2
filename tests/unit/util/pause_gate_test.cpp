#include "util/pause_gate.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

namespace retsnoop {
namespace {

TEST(PauseGate, OpenGatePassesAtOnce) {
  PauseGate gate;
  gate.checkpoint();
}

TEST(PauseGate, HeldGateWaitsForTheHoldToEnd) {
  PauseGate gate;
  std::atomic<bool> passed{false};
  std::thread task;
  {
    PauseGate::Hold hold(gate);
    task = std::thread([&] {
      gate.checkpoint();
      passed = true;
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    EXPECT_FALSE(passed);
  }
  task.join();
  EXPECT_TRUE(passed);
}

}  // namespace
}  // namespace retsnoop
