#include "attach/run_registry.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

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
  std::string link = path_ + ".link";
  std::filesystem::create_directory_symlink(path_, link);
  EXPECT_FALSE(RunStateDir::open(link, false));
  std::filesystem::remove(link);
  if (geteuid() != 0) GTEST_SKIP() << "chown needs root";
  ASSERT_EQ(chown(path_.c_str(), 65534, 65534), 0);
  EXPECT_FALSE(RunStateDir::open(path_, false));
}

// Other users must not be able to open it: whoever can, can lock it.
TEST_F(RunRegistryTest, OpenDirectoryIsMadePrivate) {
  for (mode_t mode : {0755, 0777, 0711}) {
    chmod(path_.c_str(), mode);
    EXPECT_TRUE(RunStateDir::open(path_, false));
    struct stat st;
    ASSERT_EQ(stat(path_.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 07777, 0700u) << std::oct << mode;
  }
}

TEST_F(RunRegistryTest, MissingDirectoryIsCreatedOnlyWhenAsked) {
  std::string sub = path_ + "/state";
  EXPECT_FALSE(RunStateDir::open(sub, false));
  auto d = RunStateDir::open(sub, true);
  ASSERT_TRUE(d);
  struct stat st;
  ASSERT_EQ(stat(sub.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0700u);
}

TEST_F(RunRegistryTest, LockFilesArePrivate) {
  RunStateDir d = dir();
  RunLock run(&d);
  struct stat st;
  ASSERT_EQ(stat((path_ + "/" + run.id() + ".lock").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0600u);
}

// A lock file that is a link, or that others could write to, judges no run: its run is unknown,
// and what it left is not touched.
TEST_F(RunRegistryTest, ForeignLockFilesAreNotJudged) {
  RunStateDir d = dir();
  std::filesystem::create_symlink("/etc/hostname", path_ + "/0123456789ab.lock");
  EXPECT_EQ(run_liveness(d, "0123456789ab"), Liveness::Unknown);
  ASSERT_TRUE(std::ofstream(path_ + "/0123456789ac.lock"));
  chmod((path_ + "/0123456789ac.lock").c_str(), 0666);
  EXPECT_EQ(run_liveness(d, "0123456789ac"), Liveness::Unknown);
}

// A process holding the directory's lock delays a run by lock_wait at most, and the run says so.
TEST_F(RunRegistryTest, LockWaitIsBounded) {
  auto d = RunStateDir::open(path_, false, std::chrono::milliseconds(200));
  ASSERT_TRUE(d);
  int other = open(path_.c_str(), O_RDONLY | O_DIRECTORY);
  ASSERT_EQ(flock(other, LOCK_EX), 0);
  auto t0 = std::chrono::steady_clock::now();
  EXPECT_FALSE(d->lock("test"));
  RunLock run(&*d);
  EXPECT_FALSE(run.registered());
  auto took = std::chrono::steady_clock::now() - t0;
  EXPECT_GE(took, std::chrono::milliseconds(400));
  EXPECT_LT(took, std::chrono::seconds(3));
  close(other);
  EXPECT_TRUE(d->lock("test"));
  EXPECT_TRUE(RunLock(&*d).registered());
}

// A holder that lets go within the wait is waited for.
TEST_F(RunRegistryTest, ShortHoldIsWaitedFor) {
  auto d = RunStateDir::open(path_, false, std::chrono::seconds(5));
  ASSERT_TRUE(d);
  int other = open(path_.c_str(), O_RDONLY | O_DIRECTORY);
  ASSERT_EQ(flock(other, LOCK_EX), 0);
  std::thread release([other] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    close(other);
  });
  EXPECT_TRUE(d->lock("test"));
  release.join();
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
