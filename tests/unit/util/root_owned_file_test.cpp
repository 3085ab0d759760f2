#include "util/root_owned_file.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "temp_dir.h"
#include "util/error.h"

namespace retsnoop {
namespace {

struct stat owned_stat(uid_t uid, mode_t mode) {
  struct stat st {};
  st.st_uid = uid;
  st.st_mode = mode;
  return st;
}

TEST(NonRootWriter, OnlyRootMayWrite) {
  EXPECT_EQ(non_root_writer(owned_stat(0, S_IFREG | 0644)), "");
  EXPECT_EQ(non_root_writer(owned_stat(0, S_IFDIR | 0755)), "");
  EXPECT_EQ(non_root_writer(owned_stat(1000, S_IFREG | 0444)), "belongs to uid 1000, not root");
  EXPECT_EQ(non_root_writer(owned_stat(0, S_IFREG | 0664)), "is writable by its group");
  EXPECT_EQ(non_root_writer(owned_stat(0, S_IFREG | 0646)), "is writable by others");
  EXPECT_EQ(non_root_writer(owned_stat(0, S_IFDIR | 0757)), "is writable by others");
}

// In /tmp, only an entry's owner can remove or rename it.
TEST(NonRootWriter, RootsStickyDirectoryCounts) {
  EXPECT_EQ(non_root_writer(owned_stat(0, S_IFDIR | 01777)), "");
  EXPECT_EQ(non_root_writer(owned_stat(1000, S_IFDIR | 01777)), "belongs to uid 1000, not root");
  // The sticky bit means nothing on a file.
  EXPECT_EQ(non_root_writer(owned_stat(0, S_IFREG | 01666)), "is writable by its group");
}

class RootOwnedFile : public ::testing::Test {
 protected:
  void SetUp() override {
    if (geteuid() != 0) GTEST_SKIP() << "needs root";
    chmod(dir_.path().c_str(), 0755);
    file_ = dir_.write("sub/file", "x");
    chmod(sub().c_str(), 0755);
    chmod(file_.c_str(), 0644);
  }
  std::string sub() const { return dir_.path() + "/sub"; }
  std::string error_of(const std::string& path) {
    try {
      open_root_owned_file(path, "cannot open f");
    } catch (const UserError& e) {
      return e.what();
    }
    return "";
  }

  test::TempDir dir_;
  std::string file_;
};

TEST_F(RootOwnedFile, RootsFileOpens) {
  EXPECT_TRUE(open_root_owned_file(file_, "cannot open f"));
  EXPECT_EQ(error_of(file_), "");
}

TEST_F(RootOwnedFile, AnotherUsersFileIsRefused) {
  ASSERT_EQ(chown(file_.c_str(), 1000, 1000), 0);
  EXPECT_EQ(error_of(file_),
            "cannot open f: not trusted, '" + file_ + "' belongs to uid 1000, not root");
}

TEST_F(RootOwnedFile, FileOthersMayWriteIsRefused) {
  ASSERT_EQ(chmod(file_.c_str(), 0666), 0);
  EXPECT_EQ(error_of(file_),
            "cannot open f: not trusted, '" + file_ + "' is writable by its group");
}

TEST_F(RootOwnedFile, DirectoryAnotherUserOwnsIsRefused) {
  ASSERT_EQ(chown(sub().c_str(), 1000, 1000), 0);
  EXPECT_EQ(error_of(file_),
            "cannot open f: not trusted, '" + sub() + "' belongs to uid 1000, not root");
}

TEST_F(RootOwnedFile, DirectoryOthersMayWriteIsRefusedUnlessSticky) {
  ASSERT_EQ(chmod(sub().c_str(), 0757), 0);
  EXPECT_EQ(error_of(file_), "cannot open f: not trusted, '" + sub() + "' is writable by others");
  ASSERT_EQ(chmod(sub().c_str(), 01777), 0);
  EXPECT_EQ(error_of(file_), "");
}

// The resolved path is checked: a root symlink into another user's directory leads nowhere.
TEST_F(RootOwnedFile, SymlinkIsFollowedAndItsTargetChecked) {
  std::string link = dir_.path() + "/link";
  std::filesystem::create_symlink(file_, link);
  EXPECT_EQ(error_of(link), "");
  ASSERT_EQ(chown(sub().c_str(), 1000, 1000), 0);
  EXPECT_EQ(error_of(link),
            "cannot open f: not trusted, '" + sub() + "' belongs to uid 1000, not root");
}

// Another user names their directories: what they chose is escaped.
TEST_F(RootOwnedFile, NamesAreEscaped) {
  std::string evil = dir_.path() + "/e\x1b[2J";
  std::filesystem::create_directory(evil);
  ASSERT_EQ(chown(evil.c_str(), 1000, 1000), 0);
  std::string file = dir_.write("e\x1b[2J/f", "x");
  EXPECT_EQ(error_of(file), "cannot open f: not trusted, '" + dir_.path() +
                                "/e\\x1b[2J' belongs to uid 1000, not root");
}

TEST_F(RootOwnedFile, OnlyRegularFiles) {
  EXPECT_EQ(error_of(sub()), "cannot open f: a directory, not a regular file");
  EXPECT_EQ(error_of(dir_.path() + "/none"), "cannot open f: No such file or directory");
}

}  // namespace
}  // namespace retsnoop
