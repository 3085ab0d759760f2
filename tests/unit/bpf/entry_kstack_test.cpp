// A failing call's kernel stack put together from the stacks taken at traced entries, where
// kretprobe stacks do not unwind (src/bpf/entry_kstack.h, the same code the kernel runs), with
// segments shaped as Linux 5.10 takes them: each ends at the kretprobe trampoline of the traced
// call it runs under.
#include "bpf/entry_kstack.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

namespace retsnoop {
namespace {

static_assert(RS_MAX_KSTACK < RS_KSTACK_UNKNOWN, "a level's frame count fits below the mark");

constexpr rs_u64 kTrampoline = 0xffff0000;
constexpr rs_s64 kFrame = sizeof(rs_u64);

using Stack = std::vector<rs_u64>;

long copy_frames(void* dst, rs_u32 size, const void* src) {
  std::memcpy(dst, src, size);
  return 0;
}

long copy_fails(void*, rs_u32, const void*) { return -EFAULT; }

// The entry of level depth takes stack (innermost first), as bpf_get_stack() would write it.
void take(rs_entry_kstack& k, rs_u32 depth, const Stack& stack, rs_u64 trampoline = kTrampoline) {
  rs_s32 start = rs_entry_kstack_start(&k, depth);
  ASSERT_GE(start, 0);
  size_t n = std::min<size_t>(stack.size(), RS_MAX_KSTACK);
  std::copy_n(stack.begin(), n, k.ips + start);
  rs_entry_kstack_taken(&k, depth, start, static_cast<rs_s64>(n) * kFrame, trampoline);
}

// The stack of level depth cannot be told.
bool unknown(const rs_entry_kstack& k, rs_u32 depth, rs_kstack_copy_fn copy = copy_frames) {
  Stack out(RS_MAX_KSTACK);
  return rs_entry_kstack_gather(&k, depth, out.data(), copy) == -1;
}

Stack gather(const rs_entry_kstack& k, rs_u32 depth) {
  Stack out(RS_MAX_KSTACK);
  rs_s32 n = rs_entry_kstack_gather(&k, depth, out.data(), copy_frames);
  EXPECT_GE(n, 0);
  out.resize(std::max(n, 0));
  return out;
}

// __x64_sys_bpf (level 0), called from do_syscall_64 (0x20), which entry_SYSCALL_64 called
// (0x10), runs __do_sys_bpf (0x41), whose map_create (0x51) calls array_map_alloc_check (level 1).
const Stack kLevel0 = {0x20, 0x10};
const Stack kLevel1 = {0x51, 0x41, kTrampoline};

TEST(EntryKstack, AFailingCallGetsItsSegmentAndTheStackAboveIt) {
  rs_entry_kstack k{};
  take(k, 0, kLevel0);
  take(k, 1, kLevel1);
  EXPECT_EQ(gather(k, 1), (Stack{0x51, 0x41, 0x20, 0x10}));
  EXPECT_EQ(gather(k, 0), kLevel0);
}

TEST(EntryKstack, ASiblingReplacesTheSegmentOfItsLevel) {
  rs_entry_kstack k{};
  take(k, 0, kLevel0);
  take(k, 1, kLevel1);
  take(k, 2, {0x61, kTrampoline});
  take(k, 1, {0x99, 0x88, 0x42, kTrampoline});
  EXPECT_EQ(gather(k, 1), (Stack{0x99, 0x88, 0x42, 0x20, 0x10}));
}

// The kretprobe of the call above was missed: the unwinder went on to the syscall.
TEST(EntryKstack, ASegmentWithoutTheTrampolineIsAWholeStack) {
  rs_entry_kstack k{};
  take(k, 0, kLevel0);
  take(k, 1, {0x51, 0x41, 0x20, 0x10});
  EXPECT_EQ(gather(k, 1), (Stack{0x51, 0x41, 0x20, 0x10}));
}

// Level 0 has no traced caller: a stack of it that ends at a trampoline (its own kretprobe
// ran first and replaced the return address) ends there, without the trampoline's frame.
TEST(EntryKstack, LevelZeroNeverContinues) {
  rs_entry_kstack k{};
  take(k, 0, {0x20, kTrampoline});
  EXPECT_EQ(gather(k, 0), (Stack{0x20}));
  take(k, 1, {0x51, kTrampoline});
  EXPECT_EQ(gather(k, 1), (Stack{0x51, 0x20}));
}

// User-space functions (levels 0 and 1) take no kernel frames at their entries: the system call
// under them is a whole stack, and a failing call below it gathers up to the system call entry.
TEST(EntryKstack, UserLevelsAddNoFrames) {
  rs_entry_kstack k{};
  take(k, 0, {});
  take(k, 1, {});
  take(k, 2, kLevel0);
  take(k, 3, kLevel1);
  EXPECT_EQ(gather(k, 3), (Stack{0x51, 0x41, 0x20, 0x10}));
  EXPECT_EQ(gather(k, 2), kLevel0);
  EXPECT_EQ(gather(k, 1), Stack{});
}

TEST(EntryKstack, ALongStackLosesItsOutermostFrames) {
  rs_entry_kstack k{};
  Stack outer(RS_MAX_KSTACK - 2, 0x10);
  take(k, 0, outer);
  take(k, 1, {0x51, 0x41, 0x31, 0x21, kTrampoline});
  Stack got = gather(k, 1);
  ASSERT_EQ(got.size(), static_cast<size_t>(RS_MAX_KSTACK));
  EXPECT_EQ(Stack(got.begin(), got.begin() + 4), (Stack{0x51, 0x41, 0x31, 0x21}));
  // With the buffer full, a deeper entry has no room: its stack is unknown.
  EXPECT_EQ(rs_entry_kstack_start(&k, 2), -1);
  rs_entry_kstack_taken(&k, 2, -1, 0, kTrampoline);
  EXPECT_TRUE(unknown(k, 2));
}

TEST(EntryKstack, AStackThatCouldNotBeTakenIsUnknownBelowItToo) {
  rs_entry_kstack k{};
  take(k, 0, kLevel0);
  rs_s32 start = rs_entry_kstack_start(&k, 1);
  rs_entry_kstack_taken(&k, 1, start, -EFAULT, kTrampoline);
  EXPECT_TRUE(unknown(k, 1));
  EXPECT_EQ(rs_entry_kstack_start(&k, 2), -1);
  EXPECT_EQ(gather(k, 0), kLevel0);
}

TEST(EntryKstack, AFailedCopyIsAnError) {
  rs_entry_kstack k{};
  take(k, 0, kLevel0);
  EXPECT_TRUE(unknown(k, 0, copy_fails));
}

TEST(EntryKstack, WithoutTheTrampolineAddressEverySegmentIsWhole) {
  rs_entry_kstack k{};
  take(k, 0, kLevel0, 0);
  take(k, 1, kLevel1, 0);
  EXPECT_EQ(gather(k, 1), kLevel1);
}

TEST(EntryKstack, LevelsBeyondTheChainAreNotKept) {
  rs_entry_kstack k{};
  rs_entry_kstack_taken(&k, RS_MAX_DEPTH, 0, 3 * kFrame, kTrampoline);
  EXPECT_TRUE(unknown(k, RS_MAX_DEPTH));
}

}  // namespace
}  // namespace retsnoop
