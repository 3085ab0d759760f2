#include "util/cache_dir.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "temp_dir.h"

namespace retsnoop {
namespace {

using test::TempDir;

constexpr uid_t kOtherUser = 65534;

std::string content_of(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

struct stat status(mode_t mode, uid_t uid) {
  struct stat st = {};
  st.st_mode = mode;
  st.st_uid = uid;
  return st;
}

mode_t mode_of(const std::string& path) {
  struct stat st;
  EXPECT_EQ(lstat(path.c_str(), &st), 0) << path;
  return st.st_mode & 07777;
}

size_t cache_entries(const std::string& dir) {
  return std::distance(std::filesystem::directory_iterator(dir), {});
}

// sudo -E hands root the invoking user's XDG_CACHE_HOME and HOME: root must not write there.
TEST(CacheDirLocation, RootUsesItsOwnDirectoryWhateverTheEnvironment) {
  EXPECT_EQ(cache_dir_location(0, "/home/user/.cache", "/home/user"), "/var/cache/retsnoop");
  EXPECT_EQ(cache_dir_location(0, nullptr, nullptr), "/var/cache/retsnoop");
}

TEST(CacheDirLocation, OtherUsersFollowXdg) {
  EXPECT_EQ(cache_dir_location(1000, "/x/cache", "/home/u"), "/x/cache/retsnoop");
  EXPECT_EQ(cache_dir_location(1000, "", "/home/u"), "/home/u/.cache/retsnoop");
  EXPECT_EQ(cache_dir_location(1000, nullptr, "/"), "/.cache/retsnoop");
  EXPECT_EQ(cache_dir_location(1000, nullptr, nullptr), "");
}

TEST(UnsafeCacheDirReason, OnlyOwnDirectoriesNobodyElseWrites) {
  EXPECT_EQ(unsafe_cache_dir_reason(status(S_IFDIR | 0755, 1000), 1000), nullptr);
  EXPECT_EQ(unsafe_cache_dir_reason(status(S_IFDIR | 0700, 0), 0), nullptr);
  EXPECT_STREQ(unsafe_cache_dir_reason(status(S_IFDIR | 0755, kOtherUser), 0),
               "owned by another user");
  EXPECT_STREQ(unsafe_cache_dir_reason(status(S_IFDIR | 0775, 0), 0),
               "writable by group or others");
  EXPECT_STREQ(unsafe_cache_dir_reason(status(S_IFDIR | 01777, 0), 0),
               "writable by group or others");
  EXPECT_STREQ(unsafe_cache_dir_reason(status(S_IFLNK | 0777, 0), 0), "not a directory");
  EXPECT_STREQ(unsafe_cache_dir_reason(status(S_IFREG | 0755, 0), 0), "not a directory");
}

TEST(UnsafeCacheFileReason, OnlyOwnRegularFilesNobodyElseWrites) {
  EXPECT_EQ(unsafe_cache_file_reason(status(S_IFREG | 0644, 0), 0), nullptr);
  EXPECT_STREQ(unsafe_cache_file_reason(status(S_IFREG | 0644, kOtherUser), 0),
               "owned by another user");
  EXPECT_STREQ(unsafe_cache_file_reason(status(S_IFREG | 0646, 0), 0),
               "writable by group or others");
  EXPECT_STREQ(unsafe_cache_file_reason(status(S_IFIFO | 0644, 0), 0), "not a regular file");
}

TEST(CacheDir, CreatesMissingDirectoryNobodyElseWrites) {
  TempDir tmp;
  std::string path = tmp.path() + "/a/b/retsnoop";
  ASSERT_TRUE(CacheDir::open(path));
  EXPECT_TRUE(std::filesystem::is_directory(path));
  EXPECT_EQ(mode_of(path) & 022, 0u);
}

TEST(CacheDir, RefusesWritableBySomeoneElse) {
  TempDir tmp;
  std::string path = tmp.path() + "/cache";
  ASSERT_EQ(mkdir(path.c_str(), 0755), 0);
  ASSERT_EQ(chmod(path.c_str(), 0777), 0);
  EXPECT_FALSE(CacheDir::open(path));
  ASSERT_EQ(chmod(path.c_str(), 0775), 0);
  EXPECT_FALSE(CacheDir::open(path));
  ASSERT_EQ(chmod(path.c_str(), 0755), 0);
  EXPECT_TRUE(CacheDir::open(path));
}

TEST(CacheDir, RefusesSymlinkAndNonDirectory) {
  TempDir tmp;
  std::string target = tmp.path() + "/real";
  ASSERT_EQ(mkdir(target.c_str(), 0755), 0);
  std::string link = tmp.path() + "/link";
  ASSERT_EQ(symlink(target.c_str(), link.c_str()), 0);
  EXPECT_FALSE(CacheDir::open(link));
  EXPECT_FALSE(CacheDir::open(tmp.write("file", "x")));
}

TEST(CacheDir, RefusesDirectoryOfAnotherUser) {
  if (geteuid() != 0) GTEST_SKIP() << "giving a directory away needs root";
  TempDir tmp;
  std::string path = tmp.path() + "/cache";
  ASSERT_EQ(mkdir(path.c_str(), 0755), 0);
  ASSERT_EQ(chown(path.c_str(), kOtherUser, kOtherUser), 0);
  EXPECT_FALSE(CacheDir::open(path));
}

TEST(CacheDir, WritesWholeFilesNobodyElseWrites) {
  TempDir tmp;
  std::optional<CacheDir> dir = CacheDir::open(tmp.path());
  ASSERT_TRUE(dir);
  ASSERT_TRUE(dir->write("index", "first"));
  ASSERT_TRUE(dir->write("index", "second"));
  EXPECT_EQ(dir->read("index"), "second");
  EXPECT_EQ(mode_of(tmp.path() + "/index"), 0644u);
  EXPECT_EQ(cache_entries(tmp.path()), 1u) << "temporary files left behind";
  EXPECT_EQ(dir->read("missing"), std::nullopt);
}

// The attack: a user plants a symlink where root is about to write, pointing at a file to
// overwrite (or read back through the cache).
TEST(CacheDir, PlantedSymlinkIsNeitherFollowedNorTrusted) {
  TempDir tmp;
  std::string victim = tmp.write("victim", "precious");
  std::string dir_path = tmp.path() + "/cache";
  std::optional<CacheDir> dir = CacheDir::open(dir_path);
  ASSERT_TRUE(dir);
  ASSERT_EQ(symlink(victim.c_str(), (dir_path + "/index").c_str()), 0);
  EXPECT_EQ(dir->read("index"), std::nullopt);
  ASSERT_TRUE(dir->write("index", "fresh"));
  EXPECT_EQ(content_of(victim), "precious");
  EXPECT_TRUE(
      std::filesystem::is_regular_file(std::filesystem::symlink_status(dir_path + "/index")));
  EXPECT_EQ(dir->read("index"), "fresh");
}

TEST(CacheDir, ExclusiveCreateRefusesAnythingAlreadyThere) {
  TempDir tmp;
  std::string victim = tmp.write("victim", "precious");
  OwnedFd dir_fd(open(tmp.path().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  ASSERT_TRUE(dir_fd);
  ASSERT_EQ(symlink(victim.c_str(), (tmp.path() + "/to-victim").c_str()), 0);
  ASSERT_EQ(symlink("/nonexistent/x", (tmp.path() + "/dangling").c_str()), 0);
  for (const char* planted : {"to-victim", "dangling", "victim"}) {
    EXPECT_FALSE(create_exclusive(dir_fd.get(), planted)) << planted;
    EXPECT_EQ(errno, EEXIST) << planted;
  }
  EXPECT_EQ(content_of(victim), "precious");
  EXPECT_FALSE(std::filesystem::exists("/nonexistent/x"));
  OwnedFd fresh = create_exclusive(dir_fd.get(), "fresh");
  EXPECT_TRUE(fresh);
  EXPECT_EQ(mode_of(tmp.path() + "/fresh") & 0133, 0u);
}

TEST(CacheDir, IgnoresFilesOthersCanWrite) {
  TempDir tmp;
  std::optional<CacheDir> dir = CacheDir::open(tmp.path());
  ASSERT_TRUE(dir);
  std::string path = tmp.write("index", "tampered");
  ASSERT_EQ(chmod(path.c_str(), 0666), 0);
  EXPECT_EQ(dir->read("index"), std::nullopt);
  ASSERT_EQ(chmod(path.c_str(), 0644), 0);
  EXPECT_EQ(dir->read("index"), "tampered");
}

TEST(CacheDir, IgnoresFilesOfAnotherUser) {
  if (geteuid() != 0) GTEST_SKIP() << "giving a file away needs root";
  TempDir tmp;
  std::optional<CacheDir> dir = CacheDir::open(tmp.path());
  ASSERT_TRUE(dir);
  std::string path = tmp.write("index", "theirs");
  ASSERT_EQ(chown(path.c_str(), kOtherUser, kOtherUser), 0);
  EXPECT_EQ(dir->read("index"), std::nullopt);
}

}  // namespace
}  // namespace retsnoop
