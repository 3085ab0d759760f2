#include "symbolize/path_pool.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace retsnoop {
namespace {

TEST(PathPool, SamePathIsKeptOnce) {
  PathPool pool;
  std::string long_path = "/" + std::string(3771, 'd') + "/exe";
  PathPool::Path a = pool.intern(long_path);
  size_t one = pool.bytes();
  EXPECT_GE(one, long_path.size());
  std::vector<PathPool::Path> many;
  many.reserve(1000);
  for (int i = 0; i < 1000; ++i) many.push_back(pool.intern(std::string(long_path)));
  EXPECT_EQ(pool.size(), 1u);
  EXPECT_EQ(pool.bytes(), one);
  EXPECT_EQ(many.back().get(), a.get());
  EXPECT_EQ(*a, long_path);
  PathPool::Path other = pool.intern("/usr/lib/libc.so.6");
  EXPECT_NE(other.get(), a.get());
  EXPECT_EQ(pool.size(), 2u);
  EXPECT_GT(pool.bytes(), one);
}

TEST(PathPool, SweepForgetsOnlyPathsNobodyHolds) {
  PathPool pool;
  PathPool::Path kept = pool.intern("/bin/kept");
  pool.intern("/bin/dropped");
  size_t both = pool.bytes();
  pool.sweep();
  EXPECT_EQ(pool.size(), 1u);
  EXPECT_LT(pool.bytes(), both);
  EXPECT_EQ(pool.intern("/bin/kept").get(), kept.get());
  kept.reset();
  pool.sweep();
  EXPECT_EQ(pool.size(), 0u);
  EXPECT_EQ(pool.bytes(), 0u);
}

}  // namespace
}  // namespace retsnoop
