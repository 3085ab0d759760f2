// Drives the BPF session chain (src/bpf/chain.h, the same code the kernel runs) with synthetic
// call sequences: which chain is reported, when stacks are captured, what gets stitched.
#include "bpf/chain.h"

#include <gtest/gtest.h>

#include <cerrno>

#include <memory>
#include <vector>

namespace retsnoop {
namespace {

// Function ids are the letters of the tests' call trees; time advances 10 ns per event.
class ChainDriver {
 public:
  explicit ChainDriver(bool success_stacks = false) : success_stacks_(success_stacks) {}

  bool enter(char func) { return rs_chain_enter(c_.get(), func, tick()); }
  // A failing return, as the BPF side judges an errno result.
  int fail(char func, int64_t res = -EINVAL) {
    return rs_chain_exit(c_.get(), func, res, true, success_stacks_, tick());
  }
  int ok(char func, int64_t res = 0) {
    return rs_chain_exit(c_.get(), func, res, false, success_stacks_, tick());
  }

  const rs_chain& chain() const { return *c_; }
  // The reported chain as function letters, stitched levels after a '|'.
  std::string reported() const {
    std::string out;
    for (uint32_t i = 0; i < c_->max_depth; ++i) out += char(c_->frames[i].func_id);
    uint32_t stitched = rs_chain_stitched_depth(c_.get());
    if (stitched > c_->max_depth) out += '|';
    for (uint32_t i = c_->max_depth; i < stitched; ++i) out += char(c_->saved[i].func_id);
    return out;
  }

 private:
  uint64_t tick() { return now_ += 10; }

  std::unique_ptr<rs_chain> c_ = std::make_unique<rs_chain>();  // zeroed, as BPF opens it
  bool success_stacks_;
  uint64_t now_ = 0;
};

TEST(Chain, DeepestFailureIsCapturedOnceOnTheWayUp) {
  ChainDriver d;
  d.enter('A');
  d.enter('B');
  d.enter('C');
  EXPECT_EQ(d.fail('C', -ENOMEM), RS_STEP_CAPTURE);
  EXPECT_EQ(d.fail('B'), 0);
  EXPECT_EQ(d.fail('A'), RS_STEP_CLOSE);
  EXPECT_TRUE(d.chain().is_err);
  EXPECT_EQ(d.reported(), "ABC");
  EXPECT_EQ(d.chain().frames[2].res, -ENOMEM);
  EXPECT_EQ(d.chain().frames[2].dur_ns, 10u);
  EXPECT_EQ(d.chain().frames[0].dur_ns, 50u);
}

TEST(Chain, SuccessfulReturnClearsTheError) {
  ChainDriver d;
  d.enter('A');
  d.enter('B');
  d.fail('B');
  EXPECT_EQ(d.ok('A'), RS_STEP_CLOSE);
  EXPECT_FALSE(d.chain().is_err);
}

TEST(Chain, FailureAfterAHandledOneStartsANewChain) {
  ChainDriver d;
  d.enter('A');
  d.enter('B');
  d.enter('C');
  d.fail('C');
  d.ok('B');  // B handled C's failure
  EXPECT_EQ(d.fail('A'), RS_STEP_CAPTURE | RS_STEP_CLOSE);
  EXPECT_EQ(d.reported(), "A");
}

TEST(Chain, SucceedingChildrenAreNotPartOfTheFailure) {
  ChainDriver d;
  d.enter('A');
  d.enter('B');
  d.enter('C');
  EXPECT_EQ(d.ok('C'), 0);
  EXPECT_EQ(d.fail('B'), RS_STEP_CAPTURE);
  d.fail('A');
  EXPECT_EQ(d.reported(), "AB");
}

// The per-CPU array case (simfail bpf-bad-map-val-size-percpu-array): bpf_map_alloc_percpu (D)
// fails inside array_map_alloc (C), a cleanup call (E) overwrites that level, then C fails on its
// own: D hangs one level below.
TEST(Chain, FailedSubChainOverwrittenBySiblingIsStitched) {
  ChainDriver d;
  d.enter('A');
  d.enter('B');
  d.enter('C');
  d.enter('D');
  d.fail('D', 0);
  d.enter('E');
  d.ok('E');
  EXPECT_EQ(d.fail('C', -ENOMEM), RS_STEP_CAPTURE);
  d.fail('B', -ENOMEM);
  d.fail('A', -ENOMEM);
  EXPECT_EQ(d.reported(), "ABC|D");
  EXPECT_EQ(d.chain().saved[3].res, 0);
}

TEST(Chain, ChainSavedFurtherDownIsNotStitched) {
  // X failed under C; Y overwrote it; C itself then succeeded and B failed: X does not hang
  // right below B, and C's saved level never had a result.
  ChainDriver d;
  d.enter('A');
  d.enter('B');
  d.enter('C');
  d.enter('X');
  d.fail('X');
  d.enter('Y');
  d.ok('Y');
  d.ok('C');
  d.fail('B');
  d.fail('A');
  EXPECT_EQ(d.reported(), "AB");
}

TEST(Chain, ChainUnderAnotherCallOfTheSameLevelIsNotStitched) {
  ChainDriver d;
  d.enter('A');
  d.enter('B');
  d.enter('C');
  d.fail('C');
  d.enter('D');
  d.ok('D');
  d.ok('B');
  d.enter('E');  // the same level as B, another call
  d.fail('E');
  d.fail('A');
  EXPECT_EQ(d.reported(), "AE");
}

TEST(Chain, StitchedSubChainsNest) {
  ChainDriver d;
  d.enter('A');
  d.enter('B');
  d.enter('C');
  d.enter('X');
  d.fail('X');
  d.enter('Y');  // saves ABCX
  d.ok('Y');
  d.fail('C');
  d.enter('Z');  // saves ABC with X still below it
  d.ok('Z');
  d.fail('B');
  d.fail('A');
  EXPECT_EQ(d.reported(), "AB|CX");
  EXPECT_EQ(d.chain().saved[2].res, -EINVAL);  // C's own result, known when it was saved
}

TEST(Chain, LaterFailingSiblingReplacesTheSavedChain) {
  ChainDriver d;
  d.enter('A');
  d.enter('B');
  d.fail('B');
  d.enter('C');  // saves AB
  d.fail('C');
  d.enter('D');  // saves AC, B's chain is gone
  d.ok('D');
  d.fail('A');
  EXPECT_EQ(d.reported(), "A|C");
}

TEST(Chain, CallsDeeperThanTheLimitAreNotKept) {
  ChainDriver d;
  for (int i = 0; i < RS_MAX_DEPTH; ++i) EXPECT_TRUE(d.enter('a'));
  EXPECT_FALSE(d.enter('z'));
  EXPECT_FALSE(d.enter('z'));
  EXPECT_EQ(d.fail('z'), 0);
  EXPECT_EQ(d.fail('z'), 0);
  EXPECT_EQ(d.fail('a'), RS_STEP_CAPTURE);
  EXPECT_EQ(d.chain().max_depth, uint32_t(RS_MAX_DEPTH));
  for (int i = 1; i < RS_MAX_DEPTH - 1; ++i) d.fail('a');
  EXPECT_EQ(d.fail('a'), RS_STEP_CLOSE);
}

TEST(Chain, ExitOfAnUnrecordedCallBreaksTheSession) {
  ChainDriver d;
  d.enter('A');
  d.enter('B');
  EXPECT_EQ(d.ok('C'), RS_STEP_BROKEN);
}

TEST(Chain, SuccessStacksCaptureAtTheLeafOfTheLastChain) {
  ChainDriver d(true);
  d.enter('A');
  d.enter('B');
  EXPECT_EQ(d.ok('B'), RS_STEP_CAPTURE);
  d.enter('C');
  d.enter('D');
  EXPECT_EQ(d.ok('D', 5), RS_STEP_CAPTURE);
  EXPECT_EQ(d.ok('C'), 0);
  EXPECT_EQ(d.ok('A'), RS_STEP_CLOSE);
  EXPECT_EQ(d.reported(), "ACD");
  EXPECT_FALSE(d.chain().is_err);
}

TEST(Chain, ErrorModeCapturesNothingOnSuccess) {
  ChainDriver d;
  d.enter('A');
  d.enter('B');
  EXPECT_EQ(d.ok('B'), 0);
  EXPECT_EQ(d.ok('A'), RS_STEP_CLOSE);
}

TEST(Chain, InterimPointsAreWhereAFailureWouldBeLost) {
  ChainDriver d;
  d.enter('A');
  d.enter('B');
  EXPECT_FALSE(rs_chain_entry_replaces_failure(&d.chain()));
  d.fail('B');
  EXPECT_TRUE(rs_chain_entry_replaces_failure(&d.chain()));
  EXPECT_TRUE(rs_chain_exit_handles_failure(&d.chain(), false));
  EXPECT_FALSE(rs_chain_exit_handles_failure(&d.chain(), true));
  d.enter('C');
  EXPECT_FALSE(rs_chain_entry_replaces_failure(&d.chain()));
}

}  // namespace
}  // namespace retsnoop
