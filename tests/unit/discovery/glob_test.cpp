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

// Every shape CompiledGlob takes apart, and the ones it leaves to glob_match(), against
// glob_match() itself on names that match and names that miss by one character at either end.
TEST(CompiledGlob, AgreesWithGlobMatch) {
  const char* patterns[] = {"",     "*",     "**",    "bpf",     "bpf*",    "bpf**",
                            "*bpf", "**bpf", "*bpf*", "**bpf**", "b?f*",    "*b?f",
                            "bp*f", "*b*f*", "?",     "*?*",     "sys_bpf", "*sys_bpf"};
  const char* texts[] = {"",        "b",        "bpf",    "bpf_map",    "__x64_sys_bpf",
                         "xbpf",    "bpfx",     "xbpfx",  "bpf.isra.0", "bf",
                         "sys_bpf", "sys_bpf2", "ys_bpf", "bxf",        "map_bpf_map"};
  for (const char* p : patterns) {
    CompiledGlob g(p);
    for (const char* t : texts)
      EXPECT_EQ(g.matches(t), glob_match(p, t)) << "pattern '" << p << "', text '" << t << "'";
  }
}

}  // namespace
}  // namespace retsnoop
