#include "attach/cgroup_dirs.h"

#include <gtest/gtest.h>

#include "temp_dir.h"
#include "util/error.h"

namespace retsnoop {
namespace {

std::string error_of(const std::vector<std::string>& allow, const std::vector<std::string>& deny) {
  try {
    open_cgroup_dirs(allow, deny);
  } catch (const UserError& e) {
    return e.what();
  }
  return "";
}

TEST(CgroupDirs, NoneGivenOpensNothing) {
  CgroupDirs d = open_cgroup_dirs({}, {});
  EXPECT_TRUE(d.dirs.empty());
  EXPECT_EQ(d.allowed, 0u);
}

TEST(CgroupDirs, ADirectoryOfAnotherFileSystemIsRefused) {
  test::TempDir tmp;
  EXPECT_EQ(error_of({tmp.path()}, {}), "--cgroup " + tmp.path() + ": not a cgroup-v2 directory");
  EXPECT_EQ(error_of({}, {tmp.path()}),
            "--no-cgroup " + tmp.path() + ": not a cgroup-v2 directory");
}

TEST(CgroupDirs, MissingPathsAndFilesAreRefused) {
  test::TempDir tmp;
  std::string file = tmp.write("f", "x");
  EXPECT_EQ(error_of({tmp.path() + "/none"}, {}), "--cgroup " + tmp.path() + "/none: ENOENT");
  EXPECT_EQ(error_of({file}, {}), "--cgroup " + file + ": ENOTDIR");
}

TEST(CgroupDirs, AtMostSixteen) {
  std::vector<std::string> many(17, "/sys/fs/cgroup");
  EXPECT_EQ(error_of(many, {}), "at most 16 cgroups with --cgroup and --no-cgroup together");
}

}  // namespace
}  // namespace retsnoop
