#include "discovery/callee_spec.h"

#include <gtest/gtest.h>

#include "util/error.h"

namespace retsnoop {
namespace {

TEST(CalleeSpec, DepthOneUnlessGiven) {
  CalleeSpec s = parse_callee_spec("map_create");
  EXPECT_EQ(s.glob, "map_create");
  EXPECT_EQ(s.depth, 1u);
  s = parse_callee_spec("map_*:3");
  EXPECT_EQ(s.glob, "map_*");
  EXPECT_EQ(s.depth, 3u);
  s = parse_callee_spec("ext4_* [ext4]:5");
  EXPECT_EQ(s.glob, "ext4_* [ext4]");
  EXPECT_EQ(s.depth, 5u);
}

TEST(CalleeSpec, APathGlobKeepsItsLeadingColon) {
  CalleeSpec s = parse_callee_spec(":kernel/bpf/syscall.c");
  EXPECT_EQ(s.glob, ":kernel/bpf/syscall.c");
  EXPECT_EQ(s.depth, 1u);
  s = parse_callee_spec(":kernel/bpf/syscall.c:2");
  EXPECT_EQ(s.glob, ":kernel/bpf/syscall.c");
  EXPECT_EQ(s.depth, 2u);
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
