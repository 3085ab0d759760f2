// Where sessions live in the sessions map (src/bpf/session_slots.h, the same code the kernel
// runs): every key has a home inside the map, a claim takes the first slot not open, and the
// threads of a busy system spread out.
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

// The owner words of a sessions map, as rs_session_claim() sees them.
rs_u64* owner_in(void* map, rs_u32 slot) {
  auto& owners = *static_cast<std::vector<rs_u64>*>(map);
  return slot < owners.size() ? &owners[slot] : nullptr;
}

// Claims with compare-and-swap, as the BPF programs do from 5.12 on; taken is the slot number.
rs_u64* claim(rs_u32 key, rs_u32 slots, std::vector<rs_u64>& owners, rs_u32* taken = nullptr) {
  rs_u32 slot = ~0u;
  rs_u64* owner = rs_session_claim(key, slots, &owners, owner_in, rs_session_take_cas, &slot);
  if (taken) *taken = slot;
  return owner;
}

// Claims a slot for every key in turn, as threads opening sessions do; returns how many found none.
size_t claim_all(const std::vector<rs_u32>& keys, rs_u32 slots) {
  std::vector<rs_u64> owners(slots);
  size_t refused = 0;
  for (rs_u32 key : keys) {
    rs_u64* owner = claim(key, slots, owners);
    if (!owner) {
      refused++;
      continue;
    }
    EXPECT_EQ(*owner, key | RS_SESSION_OPEN);
  }
  return refused;
}

TEST(SessionSlots, ClaimTakesHomeFirst) {
  rs_u32 slots = rs_session_slots(16);
  std::vector<rs_u64> owners(slots);
  rs_u32 taken = 0;
  rs_u64* owner = claim(7, slots, owners, &taken);
  ASSERT_NE(owner, nullptr);
  EXPECT_EQ(static_cast<rs_u32>(owner - owners.data()), rs_session_home(7, slots));
  EXPECT_EQ(taken, rs_session_home(7, slots));
  EXPECT_EQ(*owner, 7 | RS_SESSION_OPEN);
}

TEST(SessionSlots, ClaimSkipsOpenSlotsAndReusesClosedOnes) {
  rs_u32 slots = rs_session_slots(16);
  rs_u32 home = rs_session_home(7, slots);
  std::vector<rs_u64> owners(slots);
  owners[home] = 9 | RS_SESSION_OPEN;             // another thread's, open
  owners[rs_session_next_slot(home, slots)] = 9;  // closed: anybody's
  rs_u64* owner = claim(7, slots, owners);
  ASSERT_NE(owner, nullptr);
  EXPECT_EQ(static_cast<rs_u32>(owner - owners.data()), rs_session_next_slot(home, slots));
  EXPECT_EQ(owners[home], 9 | RS_SESSION_OPEN);
  EXPECT_EQ(*owner, 7 | RS_SESSION_OPEN);
}

TEST(SessionSlots, ClaimGivesUpAfterTheProbedSlots) {
  rs_u32 slots = rs_session_slots(RS_SESSION_PROBES);
  std::vector<rs_u64> owners(slots, 9 | RS_SESSION_OPEN);
  EXPECT_EQ(claim(7, slots, owners), nullptr);
  // The slot just past the probed ones is free, and still not taken.
  rs_u32 past = rs_session_home(7, slots);
  for (int i = 0; i < RS_SESSION_PROBES; i++) past = rs_session_next_slot(past, slots);
  owners[past] = 0;
  EXPECT_EQ(claim(7, slots, owners), nullptr);
  EXPECT_EQ(owners[past], 0u);
}

// A taker that loses every race (another thread took each slot first) claims nothing.
TEST(SessionSlots, ClaimHonorsTheTakersRefusal) {
  rs_u32 slots = rs_session_slots(16);
  std::vector<rs_u64> owners(slots);
  rs_u32 slot = 0;
  auto lose = [](rs_u32, rs_u64*, rs_u64, rs_u32) { return 0; };
  EXPECT_EQ(rs_session_claim(7, slots, &owners, owner_in, lose, &slot), nullptr);
  EXPECT_EQ(owners[rs_session_home(7, slots)], 0u);
}

TEST(SessionSlots, ClaimStopsWhereTheMapEnds) {
  rs_u32 slots = rs_session_slots(16);
  std::vector<rs_u64> owners;  // a map that has no slot at all
  EXPECT_EQ(claim(7, slots, owners), nullptr);
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
