#include "discovery/candidates.h"

#include <gtest/gtest.h>

namespace retsnoop {
namespace {

TEST(GroupTraceable, OneCandidatePerModuleAndNameInFirstSeenOrder) {
  std::vector<TraceableFunc> list = {
      {"zeta", ""},       {"dup", ""},   {"map_create", "kvm"}, {"dup", ""},
      {"map_create", ""}, {"alpha", ""}, {"dup", ""},
  };
  std::vector<Candidate> c = group_traceable(list);
  ASSERT_EQ(c.size(), 5u);
  EXPECT_EQ(c[0].name, "zeta");
  EXPECT_EQ(c[1].name, "dup");
  EXPECT_EQ(c[1].copies, 3u);
  EXPECT_EQ(c[2].name, "map_create");
  EXPECT_EQ(c[2].module, "kvm");
  EXPECT_EQ(c[3].name, "map_create");
  EXPECT_EQ(c[3].module, "");
  EXPECT_EQ(c[3].copies, 1u);
  EXPECT_EQ(c[4].name, "alpha");
}

TEST(GroupTraceable, LeavesOutColdFragments) {
  std::vector<TraceableFunc> list = {{"foo.cold", ""}, {"foo", ""}};
  std::vector<Candidate> c = group_traceable(list);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].name, "foo");
}

}  // namespace
}  // namespace retsnoop
