#include "attach/shared_knob.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>

namespace retsnoop {
namespace {

class SharedKnobTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::filesystem::create_directory(dir_path_);
    set("0");
  }
  void TearDown() override {
    std::filesystem::remove_all(dir_path_);
    std::filesystem::remove(knob_);
  }

  void set(const char* v) { std::ofstream(knob_) << v << '\n'; }
  std::string value() const {
    std::string v;
    std::ifstream(knob_) >> v;
    return v;
  }
  KnobChange change() const { return rcu_expedited_change(knob_); }
  std::string state_path() const {
    return dir_path_ + "/" + std::filesystem::path(knob_).filename().string() + ".knob";
  }
  bool state_file_exists() const { return std::filesystem::exists(state_path()); }

  std::string dir_path_ = "/tmp/rs_knob_state." + std::to_string(getpid());
  std::string knob_ = "/tmp/rs_knob_value." + std::to_string(getpid());
  RunStateDir dir_ = [this] {
    std::filesystem::create_directory(dir_path_);
    return *RunStateDir::open(dir_path_, false);
  }();
};

TEST_F(SharedKnobTest, TurnsOnAndRestores) {
  RunLock run(&dir_);
  {
    SharedKnob k(change(), dir_, run);
    EXPECT_TRUE(k.holding());
    EXPECT_EQ(value(), "1");
    EXPECT_TRUE(state_file_exists());
  }
  EXPECT_EQ(value(), "0");
  EXPECT_FALSE(state_file_exists());
}

// A change no state file records would outlive a run that dies: it is undone at once, not held.
TEST_F(SharedKnobTest, UnrecordedChangeIsNotHeld) {
  std::filesystem::create_directory(state_path());
  RunLock run(&dir_);
  {
    SharedKnob k(change(), dir_, run);
    EXPECT_FALSE(k.holding());
    EXPECT_EQ(value(), "0");
  }
  EXPECT_EQ(value(), "0");
}

// A run whose record cannot be written does not join, and the holders' record stays whole: the
// change is still undone when they end.
TEST_F(SharedKnobTest, FailedJoinKeepsTheHoldersRecord) {
  RunLock a(&dir_), b(&dir_);
  auto first = std::make_unique<SharedKnob>(change(), dir_, a);
  std::filesystem::create_directory(state_path() + ".new");
  {
    SharedKnob second(change(), dir_, b);
    EXPECT_FALSE(second.holding());
  }
  std::filesystem::remove(state_path() + ".new");
  EXPECT_EQ(value(), "1");
  std::ifstream in(state_path());
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text, render_knob_state({change(), {a.id()}}));
  first.reset();
  EXPECT_EQ(value(), "0");
}

// Somebody else turned it on before us: it stays on after us.
TEST_F(SharedKnobTest, LeavesSomebodyElsesValueAlone) {
  set("1");
  RunLock run(&dir_);
  {
    SharedKnob k(change(), dir_, run);
    EXPECT_FALSE(k.holding());
  }
  EXPECT_EQ(value(), "1");
}

// Two runs at once: the first to finish must not turn it off under the second.
TEST_F(SharedKnobTest, LastHolderRestores) {
  RunLock a(&dir_), b(&dir_);
  auto first = std::make_unique<SharedKnob>(change(), dir_, a);
  {
    SharedKnob second(change(), dir_, b);
    EXPECT_TRUE(second.holding());
    first.reset();
    EXPECT_EQ(value(), "1");
  }
  EXPECT_EQ(value(), "0");
}

// Somebody set the value themselves after we flipped it: theirs wins.
TEST_F(SharedKnobTest, NeverRevertsALaterChange) {
  RunLock run(&dir_);
  {
    SharedKnob k(change(), dir_, run);
    set("0");
  }
  EXPECT_EQ(value(), "0");
  EXPECT_FALSE(state_file_exists());
}

// A run that died holding it (its lock file left, unlocked) is undone by the next run's recovery.
TEST_F(SharedKnobTest, RecoversFromADeadHolder) {
  ASSERT_TRUE(std::ofstream(dir_path_ + "/0123456789ab.lock"));
  set("1");
  ASSERT_TRUE(std::ofstream(state_path()) << render_knob_state({change(), {"0123456789ab"}}));
  auto lines = SharedKnob::recover(dir_, *dir_.lock("test"));
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_NE(lines[0].find("restored " + knob_ + " to 0"), std::string::npos);
  EXPECT_EQ(value(), "0");
  EXPECT_FALSE(state_file_exists());
}

TEST_F(SharedKnobTest, RecoveryLeavesALiveHolderAlone) {
  RunLock run(&dir_);
  SharedKnob k(change(), dir_, run);
  EXPECT_TRUE(SharedKnob::recover(dir_, *dir_.lock("test")).empty());
  EXPECT_EQ(value(), "1");
}

// A process that keeps the directory locked costs a bounded wait, and the knob is left alone.
TEST_F(SharedKnobTest, LockedDirectoryLeavesItAlone) {
  RunLock run(&dir_);
  auto quick = RunStateDir::open(dir_path_, false, std::chrono::milliseconds(100));
  ASSERT_TRUE(quick);
  OwnedFd other(open(dir_path_.c_str(), O_RDONLY | O_DIRECTORY));
  ASSERT_EQ(flock(other.get(), LOCK_EX), 0);
  auto t0 = std::chrono::steady_clock::now();
  SharedKnob k(change(), *quick, run);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(2));
  EXPECT_FALSE(k.holding());
  EXPECT_EQ(value(), "0");
}

TEST_F(SharedKnobTest, StateFileIsPrivate) {
  RunLock run(&dir_);
  SharedKnob k(change(), dir_, run);
  ASSERT_TRUE(k.holding());
  struct stat st;
  ASSERT_EQ(stat(state_path().c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0600u);
}

// A state file that others could have written is not believed: it names no knob to set back.
TEST_F(SharedKnobTest, StateFileOthersCanWriteIsIgnored) {
  ASSERT_TRUE(std::ofstream(dir_path_ + "/0123456789ab.lock"));
  set("1");
  ASSERT_TRUE(std::ofstream(state_path()) << render_knob_state({change(), {"0123456789ab"}}));
  chmod(state_path().c_str(), 0666);
  EXPECT_TRUE(SharedKnob::recover(dir_, *dir_.lock("test")).empty());
  EXPECT_EQ(value(), "1");
}

TEST_F(SharedKnobTest, UnregisteredRunDoesNotTouchIt) {
  RunLock run(nullptr);
  SharedKnob k(change(), dir_, run);
  EXPECT_FALSE(k.holding());
  EXPECT_EQ(value(), "0");
}

TEST_F(SharedKnobTest, MissingKnobIsNoError) {
  RunLock run(&dir_);
  SharedKnob k(rcu_expedited_change("/nonexistent/rcu_expedited"), dir_, run);
  EXPECT_FALSE(k.holding());
}

TEST(KnobState, RoundTrips) {
  KnobState s{rcu_expedited_change("/sys/kernel/rcu_expedited"), {"0123456789ab", "ba9876543210"}};
  EXPECT_EQ(render_knob_state(s), "/sys/kernel/rcu_expedited 0 1\n0123456789ab\nba9876543210\n");
  EXPECT_EQ(parse_knob_state(render_knob_state(s)), s);
}

TEST(KnobState, RejectsGarbage) {
  EXPECT_FALSE(parse_knob_state(""));
  EXPECT_FALSE(parse_knob_state("/k 01 1\n"));
  EXPECT_FALSE(parse_knob_state("/k 0 1\nnot-an-id\n"));
}

}  // namespace
}  // namespace retsnoop
