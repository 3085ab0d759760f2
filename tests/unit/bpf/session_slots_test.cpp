// Where sessions live in the sessions map (src/bpf/session_slots.h, the same code the kernel
// runs): every key has a home inside the map, and the threads of a busy system spread out.
#include "bpf/session_slots.h"

#include <gtest/gtest.h>

#include <set>
#include <vector>

namespace retsnoop {
namespace {

TEST(SessionSlots, HomeIsInsideTheMap) {
  for (rs_u32 sessions : {1u, 7u, 4096u, 1u << 22}) {
    rs_u32 slots = rs_session_slots(sessions);
    for (rs_u32 key : {1u, 2u, 4194303u, 0x80000000u, 0x80000003u, 0xffffffffu})
      EXPECT_LT(rs_session_home(key, slots), slots) << key << " in " << slots;
  }
}

TEST(SessionSlots, NextSlotWrapsAround) {
  EXPECT_EQ(rs_session_next_slot(0, 65), 1u);
  EXPECT_EQ(rs_session_next_slot(64, 65), 0u);
}

// Claims slots the way session_claim() does; returns how many keys found none.
size_t claim_all(const std::vector<rs_u32>& keys, rs_u32 slots) {
  std::vector<bool> taken(slots);
  size_t refused = 0;
  for (rs_u32 key : keys) {
    rs_u32 slot = rs_session_home(key, slots);
    bool placed = false;
    for (int i = 0; i < RS_SESSION_PROBES && !placed; i++) {
      if (!taken[slot]) taken[slot] = placed = true;
      slot = rs_session_next_slot(slot, slots);
    }
    refused += !placed;
  }
  return refused;
}

TEST(SessionSlots, ConsecutiveThreadsSpreadOut) {
  std::vector<rs_u32> keys;
  std::set<rs_u32> homes;
  rs_u32 slots = rs_session_slots(4096);
  for (rs_u32 tid = 1000; tid < 1000 + 4096; tid++) {
    keys.push_back(tid);
    homes.insert(rs_session_home(tid, slots));
  }
  // Random homes would be about 63% distinct.
  EXPECT_GT(homes.size(), 4096u * 4 / 5);
  // Half the size open: every session finds a slot near home.
  keys.resize(2048);
  EXPECT_EQ(claim_all(keys, slots), 0u);
}

TEST(SessionSlots, IdleTaskKeysDoNotCollide) {
  rs_u32 slots = rs_session_slots(64);
  std::vector<rs_u32> keys;
  for (rs_u32 cpu = 0; cpu < 64; cpu++) keys.push_back(0x80000000u | cpu);
  EXPECT_EQ(claim_all(keys, slots), 0u);
}

}  // namespace
}  // namespace retsnoop
