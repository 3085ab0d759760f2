#include "discovery/run_paths.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace retsnoop {
namespace {

using Dirs = std::vector<std::string>;

TEST(RunPaths, SplitsExpandsOriginAndSkipsWhatTheLoaderAloneKnows) {
  EXPECT_EQ(split_search_path("/a:/b", "/o"), (Dirs{"/a", "/b"}));
  EXPECT_EQ(split_search_path("$ORIGIN/../lib:${ORIGIN}", "/opt/x/bin"),
            (Dirs{"/opt/x/bin/../lib", "/opt/x/bin"}));
  EXPECT_EQ(split_search_path(":/a::/b:", "/o"), (Dirs{"/a", "/b"}));
  EXPECT_EQ(split_search_path("/usr/$LIB:/c/$PLATFORM:/d", "/o"), (Dirs{"/d"}));
  EXPECT_EQ(split_search_path("", "/o"), Dirs{});
}

// The loader's order: DT_RPATH unless there is a DT_RUNPATH, LD_LIBRARY_PATH, DT_RUNPATH.
TEST(RunPaths, LoaderOrder) {
  EXPECT_EQ(loader_first_dirs({.rpath = "/r"}, "/l1:/l2", "/bin/p"), (Dirs{"/r", "/l1", "/l2"}));
  EXPECT_EQ(loader_first_dirs({.rpath = "/r", .runpath = "$ORIGIN/lib"}, "/l", "/opt/p"),
            (Dirs{"/l", "/opt/lib"}));
  EXPECT_EQ(loader_first_dirs({}, "", "/bin/p"), Dirs{});
}

TEST(RunPaths, ReadsTheDynamicSection) {
  std::string dir = std::string(RS_TEST_BINARY_DIR) + "/fixtures/user_elf/";
  RunPaths p = read_run_paths(dir + "user_lib_main");
  EXPECT_EQ(p.rpath.empty() ? p.runpath : p.rpath, "$ORIGIN");
  RunPaths none = read_run_paths(dir + "user_target");
  EXPECT_EQ(none.rpath + none.runpath, "");
  RunPaths missing = read_run_paths(dir + "no-such-file");
  EXPECT_EQ(missing.rpath + missing.runpath, "");
}

}  // namespace
}  // namespace retsnoop
