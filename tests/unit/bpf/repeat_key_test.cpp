// The repeat key of -C stacks.repeats=count (src/bpf/repeat_key.h, the same code the kernel
// runs): equal exactly when the printed stacks would be.
#include "bpf/repeat_key.h"

#include <gtest/gtest.h>

#include <cerrno>

#include <memory>
#include <vector>

namespace retsnoop {
namespace {

struct Failure {
  std::vector<std::pair<uint32_t, int64_t>> chain;  // function id, result; outermost first
  std::vector<uint64_t> kstack;
  uint64_t start_ns = 1000;  // differs between repeats of one failure
  uint32_t first_seq = 0;
};

uint64_t key_of(const Failure& f) {
  auto c = std::make_unique<rs_chain>();
  c->depth = 0;
  c->max_depth = uint32_t(f.chain.size());
  c->is_err = 1;
  for (size_t i = 0; i < f.chain.size(); ++i) {
    rs_frame& fr = c->frames[i];
    fr.func_id = f.chain[i].first;
    fr.res = f.chain[i].second;
    fr.seq = f.first_seq + uint32_t(i);
    fr.start_ns = f.start_ns + i;
    fr.dur_ns = f.start_ns / 2;
  }
  return rs_repeat_key(c.get(), f.kstack.data(), uint32_t(f.kstack.size()));
}

const Failure kBase{{{1, -EINVAL}, {2, -EINVAL}}, {0xffffffff81000010, 0xffffffff81000020}};

TEST(RepeatKey, RepeatsOfOneFailureShareTheKey) {
  Failure later = kBase;
  later.start_ns = 987654321;
  later.first_seq = 40;
  EXPECT_EQ(key_of(kBase), key_of(later));
}

TEST(RepeatKey, AnotherResultIsAnotherFailure) {
  Failure f = kBase;
  f.chain[1].second = -ENOMEM;
  EXPECT_NE(key_of(kBase), key_of(f));
}

TEST(RepeatKey, AnotherFunctionIsAnotherFailure) {
  Failure f = kBase;
  f.chain[1].first = 3;
  EXPECT_NE(key_of(kBase), key_of(f));
}

TEST(RepeatKey, AnotherKernelStackIsAnotherFailure) {
  Failure f = kBase;
  f.kstack[1] = 0xffffffff81000028;  // another call site in the same function
  EXPECT_NE(key_of(kBase), key_of(f));
  Failure shorter = kBase;
  shorter.kstack.pop_back();
  EXPECT_NE(key_of(kBase), key_of(shorter));
}

TEST(RepeatKey, ShallowerChainIsAnotherFailure) {
  Failure f = kBase;
  f.chain.pop_back();
  EXPECT_NE(key_of(kBase), key_of(f));
}

// The frame count and stack length end their lists: moving an element from one to the other
// must not produce the same words in the same order.
TEST(RepeatKey, ChainAndStackDoNotRunTogether) {
  Failure a{{{1, -EINVAL}}, {2}};
  Failure b{{{1, -EINVAL}, {2, 0}}, {}};
  EXPECT_NE(key_of(a), key_of(b));
}

}  // namespace
}  // namespace retsnoop
