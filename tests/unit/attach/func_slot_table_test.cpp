// The address -> function id table of the BPF programs (attach/func_slot_table.h).
#include "attach/func_slot_table.h"

#include <gtest/gtest.h>

#include <bit>

namespace retsnoop {
namespace {

// Function starts as kallsyms has them: close together, 16-byte aligned.
std::vector<uint64_t> addresses(size_t n) {
  std::vector<uint64_t> addrs;
  for (size_t i = 0; i < n; ++i) addrs.push_back(0xffffffff81000000 + 16 * i + (i % 7) * 0x1000);
  return addrs;
}

TEST(FuncSlotTable, EveryAddressIsFoundWithItsId) {
  for (size_t n : {1, 3, 100, 5000}) {
    std::vector<uint64_t> addrs = addresses(n);
    std::vector<rs_func_slot> table = build_func_slots(addrs);
    EXPECT_TRUE(std::has_single_bit(table.size()));
    EXPECT_GE(table.size(), 2 * n);
    for (size_t id = 0; id < n; ++id) {
      std::optional<size_t> k = find_func_slot(table, addrs[id]);
      ASSERT_TRUE(k) << n << " " << id;
      EXPECT_EQ(table[*k].id, id);
    }
  }
}

TEST(FuncSlotTable, AnotherAddressIsNotFound) {
  std::vector<uint64_t> addrs = addresses(100);
  std::vector<rs_func_slot> table = build_func_slots(addrs);
  EXPECT_FALSE(find_func_slot(table, addrs[5] + 4));
  EXPECT_FALSE(find_func_slot(table, 0xffffffffa0000000));
}

TEST(FuncSlotTable, RepeatedAddressKeepsItsFirstId) {
  std::vector<uint64_t> addrs{0xffffffff81000010, 0xffffffff81000020, 0xffffffff81000010};
  std::vector<rs_func_slot> table = build_func_slots(addrs);
  EXPECT_EQ(table[*find_func_slot(table, addrs[0])].id, 0u);
}

// Addresses sharing a home slot beyond the probes a lookup makes: the table grows instead.
TEST(FuncSlotTable, GrowsUntilEveryAddressFits) {
  std::vector<uint64_t> addrs;
  uint32_t mask = 15;
  for (uint64_t a = 0xffffffff81000000; addrs.size() < RS_FUNC_SLOT_PROBES + 1; a += 16)
    if (rs_func_slot_home(a, mask) == 0) addrs.push_back(a);
  std::vector<rs_func_slot> table = build_func_slots(addrs);
  EXPECT_GT(table.size(), 16u);
  for (uint64_t a : addrs) EXPECT_TRUE(find_func_slot(table, a));
}

}  // namespace
}  // namespace retsnoop
