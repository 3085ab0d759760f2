#include "cli/lbr_flags.h"

#include <gtest/gtest.h>
#include <linux/perf_event.h>

#include "cli/value_parsers.h"

namespace retsnoop {
namespace {

TEST(LbrFlags, NamesMapToPerfBits) {
  EXPECT_EQ(parse_lbr_flags("any"), PERF_SAMPLE_BRANCH_ANY);
  EXPECT_EQ(parse_lbr_flags("any_return"), PERF_SAMPLE_BRANCH_ANY_RETURN);
  EXPECT_EQ(parse_lbr_flags("ind_jump"), PERF_SAMPLE_BRANCH_IND_JUMP);
  EXPECT_EQ(parse_lbr_flags("no_tx"), PERF_SAMPLE_BRANCH_NO_TX);
}

TEST(LbrFlags, RawMasks) {
  EXPECT_EQ(parse_lbr_flags("8"), 8u);
  EXPECT_EQ(parse_lbr_flags("131072"), 131072u);
}

TEST(LbrFlags, RejectsUnknownNamesZeroAndCase) {
  for (const char* bad : {"", "ANY", "any ", "0", "-8", "0x8", "branch"}) {
    EXPECT_THROW(parse_lbr_flags(bad), InvalidValue) << bad;
  }
}

}  // namespace
}  // namespace retsnoop
