#include "attach/online_cpus.h"

#include <gtest/gtest.h>

#include "util/error.h"

namespace retsnoop {
namespace {

using Cpus = std::vector<int>;

TEST(OnlineCpus, SingleCpuAndRanges) {
  EXPECT_EQ(parse_cpu_list("0\n"), Cpus{0});
  EXPECT_EQ(parse_cpu_list("0-3\n"), (Cpus{0, 1, 2, 3}));
  EXPECT_EQ(parse_cpu_list("0-1,4,6-7"), (Cpus{0, 1, 4, 6, 7}));
}

// CPUs taken offline leave holes; CPU 0 can be one of them on some architectures.
TEST(OnlineCpus, HolesAreKept) { EXPECT_EQ(parse_cpu_list("2,5-6\n"), (Cpus{2, 5, 6})); }

TEST(OnlineCpus, RejectsMalformedLists) {
  for (const char* bad :
       {"", "\n", "a", "1-", "-1", "3-1", "0,,1", "0,", "1,0", "0-2,2", " 0", "0 1"}) {
    EXPECT_THROW(parse_cpu_list(bad), UserError) << '\'' << bad << '\'';
  }
}

TEST(OnlineCpus, ThisMachineHasSome) { EXPECT_FALSE(online_cpus().empty()); }

}  // namespace
}  // namespace retsnoop
