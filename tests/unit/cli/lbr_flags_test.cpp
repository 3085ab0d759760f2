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

// As C's strtoul() with base 0 reads them, the way upstream retsnoop takes them.
TEST(LbrFlags, RawMasksInHexAndOctal) {
  EXPECT_EQ(parse_lbr_flags("0x8"), 8u);
  EXPECT_EQ(parse_lbr_flags("0X20000"), 131072u);
  EXPECT_EQ(parse_lbr_flags("010"), 8u);
  EXPECT_EQ(parse_lbr_flags("0"), 0u);
}

TEST(LbrFlags, RejectsUnknownNamesSignsAndCase) {
  for (const char* bad :
       {"", "ANY", "any ", "-8", "+8", "0x", "08", "0x8g", "branch", "99999999999999999999"}) {
    EXPECT_THROW(parse_lbr_flags(bad), InvalidValue) << bad;
  }
}

}  // namespace
}  // namespace retsnoop
