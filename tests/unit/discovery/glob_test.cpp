#include "discovery/glob.h"

#include <gtest/gtest.h>

namespace retsnoop {
namespace {

TEST(GlobMatch, LiteralMatchesOnlyItself) {
  EXPECT_TRUE(glob_match("map_create", "map_create"));
  EXPECT_FALSE(glob_match("map_create", "map_create2"));
  EXPECT_FALSE(glob_match("map_create", "map_creat"));
}

TEST(GlobMatch, StarMatchesAnyRunIncludingEmpty) {
  EXPECT_TRUE(glob_match("*bpf*", "bpf"));
  EXPECT_TRUE(glob_match("*bpf*", "__x64_sys_bpf"));
  EXPECT_TRUE(glob_match("*_sys_bpf", "__x64_sys_bpf"));
  EXPECT_FALSE(glob_match("*_sys_bpf", "__x64_sys_bpf2"));
  EXPECT_TRUE(glob_match("a*b*c", "aXXbYYbc"));
  EXPECT_TRUE(glob_match("*", ""));
}

TEST(GlobMatch, QuestionMarkMatchesExactlyOne) {
  EXPECT_TRUE(glob_match("foo??", "foo10"));
  EXPECT_FALSE(glob_match("foo??", "foo1"));
  EXPECT_FALSE(glob_match("foo??", "foo100"));
}

TEST(GlobMatch, TrailingStarMatchesCompilerSuffixes) {
  EXPECT_TRUE(glob_match("helper_fn*", "helper_fn.isra.0"));
  EXPECT_TRUE(glob_match("helper_fn*", "helper_fn.constprop.0"));
  EXPECT_FALSE(glob_match("helper_fn", "helper_fn.isra.0"));
}

}  // namespace
}  // namespace retsnoop
