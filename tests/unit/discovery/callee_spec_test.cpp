#include "discovery/callee_spec.h"

#include <gtest/gtest.h>

#include "util/error.h"

namespace retsnoop {
namespace {

// Depth 1 unless given; a path glob keeps its leading ':'.
TEST(CalleeSpec, GlobAndDepth) {
  struct Case {
    const char* text;
    const char* glob;
    unsigned depth;
  };
  for (const Case& c : {Case{"map_create", "map_create", 1}, Case{"map_*:3", "map_*", 3},
                        Case{"ext4_* [ext4]:5", "ext4_* [ext4]", 5},
                        Case{":kernel/bpf/syscall.c", ":kernel/bpf/syscall.c", 1},
                        Case{":kernel/bpf/syscall.c:2", ":kernel/bpf/syscall.c", 2}}) {
    CalleeSpec s = parse_callee_spec(c.text);
    EXPECT_EQ(s.glob, c.glob) << c.text;
    EXPECT_EQ(s.depth, c.depth) << c.text;
  }
}

TEST(CalleeSpec, BadDepthsAreRefused) {
  for (const char* bad : {"f:0", "f:6", "f:", "f:x", "f:-1", "f:2x", "f:99999999999"}) {
    try {
      parse_callee_spec(bad);
      ADD_FAILURE() << bad << " was accepted";
    } catch (const UserError& e) {
      EXPECT_EQ(std::string(e.what()),
                "--callees '" + std::string(bad) + "': depth must be a number from 1 to 5");
    }
  }
}

}  // namespace
}  // namespace retsnoop
