#include "attach/knob_override.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

namespace retsnoop {
namespace {

const std::string kMarkers = "/tmp/rs_knob_markers." + std::to_string(getpid());

class Knob {
 public:
  explicit Knob(const char* value) { std::ofstream(path_) << value << '\n'; }
  ~Knob() { std::remove(path_.c_str()); }
  const std::string& path() const { return path_; }
  std::string value() const {
    std::string v;
    std::ifstream(path_) >> v;
    return v;
  }

 private:
  std::string path_ = "/tmp/rs_knob_test." + std::to_string(getpid());
};

TEST(ExpeditedRcu, SwitchesOnAndRestores) {
  Knob knob("0");
  {
    ExpeditedRcu fast(knob.path(), kMarkers);
    EXPECT_EQ(knob.value(), "1");
  }
  EXPECT_EQ(knob.value(), "0");
}

// Someone else turned it on: it stays on after us.
TEST(ExpeditedRcu, LeavesAnOnKnobAlone) {
  Knob knob("1");
  { ExpeditedRcu fast(knob.path(), kMarkers); }
  EXPECT_EQ(knob.value(), "1");
}

TEST(ExpeditedRcu, MissingKnobIsNoError) { ExpeditedRcu fast("/nonexistent/rcu_expedited", kMarkers); }

TEST(KnobOverride, TurnsOffAndBackOn) {
  Knob knob("1");
  {
    KnobOverride off({knob.path(), '1', '0', "test pause"}, kMarkers);
    EXPECT_TRUE(off.active());
    EXPECT_EQ(knob.value(), "0");
  }
  EXPECT_EQ(knob.value(), "1");
}

// No marker, no change: a crash would leave the knob flipped for good.
TEST(KnobOverride, NeedsItsMarker) {
  Knob knob("0");
  ExpeditedRcu fast(knob.path(), "/proc/no-markers-here");
  EXPECT_FALSE(fast.active());
  EXPECT_EQ(knob.value(), "0");
}

// A run killed while it had the knob flipped: the next one restores it.
TEST(KnobOverride, RecoversADeadRunsKnob) {
  Knob knob("1");
  std::filesystem::create_directories(kMarkers);
  int dead_pid = 999999999;  // above any pid_max
  std::string marker = kMarkers + "/knob." + std::to_string(dead_pid);
  std::ofstream(marker) << knob.path() << " 0 1\n";
  EXPECT_EQ(KnobOverride::recover(kMarkers), 1u);
  EXPECT_EQ(knob.value(), "0");
  EXPECT_FALSE(std::filesystem::exists(marker));
  std::filesystem::remove_all(kMarkers);
}

TEST(KnobOverride, RecoveryLeavesLiveRunsAlone) {
  Knob knob("1");
  std::filesystem::create_directories(kMarkers);
  std::string marker = kMarkers + "/knob." + std::to_string(getpid());
  std::ofstream(marker) << knob.path() << " 0 1\n";
  EXPECT_EQ(KnobOverride::recover(kMarkers), 0u);
  EXPECT_EQ(knob.value(), "1");
  EXPECT_TRUE(std::filesystem::exists(marker));
  std::filesystem::remove_all(kMarkers);
}

}  // namespace
}  // namespace retsnoop
