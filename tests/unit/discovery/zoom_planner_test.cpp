#include "discovery/zoom_planner.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace retsnoop {
namespace {

using Names = std::vector<std::string>;

// The entry stays the entry, the rest of the chain is traced inside it, and the deepest
// function's code is searched for callees to the depth asked.
TEST(ZoomPlanner, NextRoundTracesTheChainAndTheDeepestFunctionsCallees) {
  Names chain = {"__x64_sys_bpf", "__sys_bpf", "map_create"};
  ZoomSelection s = plan_next_round(chain, 2, {});
  EXPECT_EQ(s.entry_globs, Names{"__x64_sys_bpf"});
  EXPECT_EQ(s.allow_globs, (Names{"__sys_bpf", "map_create"}));
  EXPECT_EQ(s.callee_globs, Names{"map_create:2"});
}

// After the first round the chain is the system call alone.
TEST(ZoomPlanner, ChainOfTheEntryAlone) {
  ZoomSelection s = plan_next_round(Names{"__x64_sys_bpf"}, 3, {});
  EXPECT_EQ(s.entry_globs, Names{"__x64_sys_bpf"});
  EXPECT_TRUE(s.allow_globs.empty());
  EXPECT_EQ(s.callee_globs, Names{"__x64_sys_bpf:3"});
}

// Callees known otherwise are added for the deepest function only, once, never the entry again.
TEST(ZoomPlanner, ExtraEdgesOfTheDeepestFunctionAreAdded) {
  Names chain = {"__x64_sys_bpf", "__sys_bpf", "map_create"};
  std::vector<CalleeEdge> edges = {
      {.caller = "map_create", .callee = "array_map_alloc_check", .kind = BranchKind::Call},
      {.caller = "__sys_bpf", .callee = "bpf_prog_load", .kind = BranchKind::Call},
      {.caller = "map_create", .callee = "array_map_alloc_check", .kind = BranchKind::Call},
      {.caller = "map_create", .callee = "__sys_bpf", .kind = BranchKind::Call},
      {.caller = "map_create", .callee = "__x64_sys_bpf", .kind = BranchKind::Call},
      {.caller = "map_create", .callee = "htab_map_alloc [mod]", .kind = BranchKind::TailJump},
  };
  ZoomSelection s = plan_next_round(chain, 1, edges);
  EXPECT_EQ(s.allow_globs,
            (Names{"__sys_bpf", "map_create", "array_map_alloc_check", "htab_map_alloc [mod]"}));
  EXPECT_EQ(s.callee_globs, Names{"map_create:1"});
}

TEST(ZoomPlanner, DeeperOnlyWhenACalleeOfTheDeepestFunctionFailed) {
  Names before = {"sys", "a", "b"};
  EXPECT_TRUE(goes_deeper(before, Names{"sys", "a", "b", "c"}));
  EXPECT_TRUE(goes_deeper(before, Names{"sys", "a", "b", "c", "d"}));
  EXPECT_FALSE(goes_deeper(before, Names{"sys", "a", "b"}));
  // The failure took another way: b is still the deepest known to fail.
  EXPECT_FALSE(goes_deeper(before, Names{"sys", "a"}));
  EXPECT_FALSE(goes_deeper(before, Names{"sys", "x", "y", "z"}));
  EXPECT_TRUE(goes_deeper(Names{}, Names{"sys"}));
  EXPECT_FALSE(goes_deeper(Names{}, Names{}));
}

}  // namespace
}  // namespace retsnoop
