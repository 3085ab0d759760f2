#include "util/root_confined_open.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>

#include "temp_dir.h"

namespace retsnoop::test {
namespace {

class RootConfinedOpen : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = OwnedFd(open(dir_.path().c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
    ASSERT_TRUE(root_);
    errno = 0;
    OwnedFd probe = open_regular_in_root(root_.get(), "/");
    if (errno == ENOSYS) GTEST_SKIP() << "this kernel has no openat2";
  }
  // The content of fd, at most 64 bytes.
  static std::string read_all(const OwnedFd& fd) {
    char buf[64];
    ssize_t n = pread(fd.get(), buf, sizeof(buf), 0);
    return n > 0 ? std::string(buf, size_t(n)) : "";
  }

  TempDir dir_;
  OwnedFd root_;
};

TEST_F(RootConfinedOpen, OpensARegularFileByItsPathInTheRoot) {
  dir_.write("usr/lib/debug/x.debug", "inside");
  OwnedFd fd = open_regular_in_root(root_.get(), "/usr/lib/debug/x.debug");
  ASSERT_TRUE(fd);
  EXPECT_EQ(read_all(fd), "inside");
  EXPECT_NE(fcntl(fd.get(), F_GETFL) & O_NONBLOCK, 0);
}

// An absolute symlink and ".." resolve against the root given, as they do for the process that
// owns it, never against retsnoop's /.
TEST_F(RootConfinedOpen, SymlinksAndDotDotStayInside) {
  TempDir outside;
  std::string secret = outside.write("secret", "outside");
  dir_.write(secret.substr(1), "shadow");  // the same path, inside the root
  std::filesystem::create_directories(dir_.path() + "/lib");
  ASSERT_EQ(symlink(secret.c_str(), (dir_.path() + "/lib/abs").c_str()), 0);
  OwnedFd fd = open_regular_in_root(root_.get(), "/lib/abs");
  ASSERT_TRUE(fd);
  EXPECT_EQ(read_all(fd), "shadow");
  fd = open_regular_in_root(root_.get(), "/../../../../.." + secret);
  ASSERT_TRUE(fd);
  EXPECT_EQ(read_all(fd), "shadow");
}

// /proc/PID/exe and the like lead anywhere, whatever the root: refused.
TEST_F(RootConfinedOpen, RefusesMagicLinks) {
  OwnedFd proc(open("/proc/self", O_PATH | O_DIRECTORY | O_CLOEXEC));
  ASSERT_TRUE(proc);
  EXPECT_FALSE(open_regular_in_root(proc.get(), "/exe"));
  EXPECT_EQ(errno, ELOOP);
}

// A FIFO would block the open until a writer comes; a directory has no content.
TEST_F(RootConfinedOpen, RefusesWhatIsNotARegularFile) {
  ASSERT_EQ(mkfifo((dir_.path() + "/fifo").c_str(), 0600), 0);
  EXPECT_FALSE(open_regular_in_root(root_.get(), "/fifo"));
  EXPECT_EQ(errno, EINVAL);
  std::filesystem::create_directories(dir_.path() + "/dir");
  EXPECT_FALSE(open_regular_in_root(root_.get(), "/dir"));
  EXPECT_EQ(errno, EINVAL);
  EXPECT_FALSE(open_regular_in_root(root_.get(), "/missing"));
  EXPECT_EQ(errno, ENOENT);
}

}  // namespace
}  // namespace retsnoop::test
