#include "attach/run_registry.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace retsnoop {
namespace {

class RunRegistryTest : public ::testing::Test {
 protected:
  void SetUp() override { std::filesystem::create_directory(path_); }
  void TearDown() override { std::filesystem::remove_all(path_); }

  RunStateDir dir() { return *RunStateDir::open(path_, false); }

  std::string path_ = "/tmp/rs_run_registry." + std::to_string(getpid());
};

TEST_F(RunRegistryTest, IdsAreFreshAndWellFormed) {
  RunStateDir d = dir();
  RunLock a(&d), b(&d);
  EXPECT_TRUE(is_run_id(a.id()));
  EXPECT_NE(a.id(), b.id());
  EXPECT_TRUE(a.registered());
}

TEST_F(RunRegistryTest, HeldLockMeansAliveAndGoesWithTheRun) {
  RunStateDir d = dir();
  std::string id;
  {
    RunLock run(&d);
    id = run.id();
    EXPECT_EQ(run_liveness(d, id), Liveness::Alive);
  }
  // A run that ended normally leaves no lock file: nobody needs to clean up after it.
  EXPECT_EQ(run_liveness(d, id), Liveness::Unknown);
}

// A run that could not remove its kernel state leaves its lock file unlocked, as a killed run
// does: later runs judge the state a dead run's.
TEST_F(RunRegistryTest, RunThatLeftStateKeepsItsLockFileUnlocked) {
  RunStateDir d = dir();
  std::string id;
  {
    RunLock run(&d);
    id = run.id();
    run.keep_until_cleaned();
    EXPECT_EQ(run_liveness(d, id), Liveness::Alive);
  }
  EXPECT_EQ(run_liveness(d, id), Liveness::Dead);
  forget_run(d, id);
  EXPECT_EQ(run_liveness(d, id), Liveness::Unknown);
}

// A killed run's lock file stays, with nobody holding its lock.
TEST_F(RunRegistryTest, UnheldLockFileMeansDead) {
  RunStateDir d = dir();
  ASSERT_TRUE(std::ofstream(path_ + "/0123456789ab.lock"));
  EXPECT_EQ(run_liveness(d, "0123456789ab"), Liveness::Dead);
  forget_run(d, "0123456789ab");
  EXPECT_EQ(run_liveness(d, "0123456789ab"), Liveness::Unknown);
}

TEST_F(RunRegistryTest, LockHeldByAnotherDescriptionMeansAlive) {
  RunStateDir d = dir();
  std::string file = path_ + "/0123456789ab.lock";
  std::ofstream(file).close();
  int fd = open(file.c_str(), O_RDONLY);
  ASSERT_EQ(flock(fd, LOCK_EX), 0);
  EXPECT_EQ(run_liveness(d, "0123456789ab"), Liveness::Alive);
  close(fd);
  EXPECT_EQ(run_liveness(d, "0123456789ab"), Liveness::Dead);
}

TEST_F(RunRegistryTest, MalformedIdsAreNeverJudged) {
  RunStateDir d = dir();
  ASSERT_TRUE(std::ofstream(path_ + "/..lock"));
  EXPECT_EQ(run_liveness(d, "."), Liveness::Unknown);
  EXPECT_EQ(run_liveness(d, "../../etc/passwd"), Liveness::Unknown);
}

TEST_F(RunRegistryTest, UnsafeDirectoriesAreRefused) {
  chmod(path_.c_str(), 0777);
  EXPECT_FALSE(RunStateDir::open(path_, false));
  chmod(path_.c_str(), 0755);
  EXPECT_TRUE(RunStateDir::open(path_, false));
  std::string link = path_ + ".link";
  std::filesystem::create_directory_symlink(path_, link);
  EXPECT_FALSE(RunStateDir::open(link, false));
  std::filesystem::remove(link);
}

TEST_F(RunRegistryTest, MissingDirectoryIsCreatedOnlyWhenAsked) {
  std::string sub = path_ + "/state";
  EXPECT_FALSE(RunStateDir::open(sub, false));
  auto d = RunStateDir::open(sub, true);
  ASSERT_TRUE(d);
  struct stat st;
  ASSERT_EQ(stat(sub.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0755u);
}

TEST(RunRegistry, LockFileNamesItsRun) {
  EXPECT_EQ(lock_file_run_id("0123456789ab.lock"), "0123456789ab");
  EXPECT_FALSE(lock_file_run_id("rcu_expedited.knob"));
  EXPECT_FALSE(lock_file_run_id("0123456789ab"));
  EXPECT_FALSE(lock_file_run_id("..lock"));
}

TEST_F(RunRegistryTest, UnregisteredRunStillHasAnId) {
  RunLock run(nullptr);
  EXPECT_TRUE(is_run_id(run.id()));
  EXPECT_FALSE(run.registered());
}

}  // namespace
}  // namespace retsnoop
