#include "util/hash_index.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

namespace retsnoop {
namespace {

std::vector<uint32_t> ids_of(const HashIndex& index, uint64_t hash) {
  std::vector<uint32_t> out;
  index.find(hash, [&](uint32_t id) {
    out.push_back(id);
    return false;
  });
  return out;
}

// Realistic hashes: the table keeps their high bits.
constexpr uint64_t kHashA = 0x9e3779b97f4a7c15, kHashB = 0xc2b2ae3d27d4eb4f;

TEST(HashIndex, FindsEveryIdOfAHashInInsertionOrder) {
  HashIndex index(8);
  index.insert(kHashA, 3);
  index.insert(kHashB, 1);
  index.insert(kHashA, 0);
  index.insert(kHashA, 5);
  EXPECT_EQ(ids_of(index, kHashA), (std::vector<uint32_t>{3, 0, 5}));
  EXPECT_EQ(ids_of(index, kHashB), (std::vector<uint32_t>{1}));
  EXPECT_TRUE(ids_of(index, 0x1234567800000000).empty());
}

// Hashes that share their low bits land in one probe run; their high bits keep them apart.
TEST(HashIndex, KeepsCollidingHashesApart) {
  HashIndex index(4);
  uint64_t a = 0x100000005, b = 0x200000005;
  index.insert(a, 1);
  index.insert(b, 2);
  EXPECT_EQ(ids_of(index, a), (std::vector<uint32_t>{1}));
  EXPECT_EQ(ids_of(index, b), (std::vector<uint32_t>{2}));
}

TEST(HashIndex, StopsWhenTheCallerFoundIt) {
  HashIndex index(4);
  index.insert(9, 1);
  index.insert(9, 2);
  std::vector<uint32_t> seen;
  EXPECT_TRUE(index.find(9, [&](uint32_t id) {
    seen.push_back(id);
    return true;
  }));
  EXPECT_EQ(seen, (std::vector<uint32_t>{1}));
  EXPECT_FALSE(index.find(9, [](uint32_t) { return false; }));
}

TEST(HashIndex, EmptyTablesFindNothing) {
  EXPECT_FALSE(HashIndex().find(1, [](uint32_t) { return true; }));
  EXPECT_FALSE(HashIndex(10).find(1, [](uint32_t) { return true; }));
}

TEST(HashIndex, RefusesMoreIdsThanItWasSizedFor) {
  HashIndex index(2);
  index.insert(1, 0);
  index.insert(2, 1);
  EXPECT_THROW(index.insert(3, 2), std::logic_error);
  EXPECT_THROW(HashIndex().insert(1, 0), std::logic_error);
}

}  // namespace
}  // namespace retsnoop
