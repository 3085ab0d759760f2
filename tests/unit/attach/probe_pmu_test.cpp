// The uprobe PMU's retprobe bit, as its format file spells it (attach/probe_pmu.h).
#include "attach/probe_pmu.h"

#include <gtest/gtest.h>

#include <optional>
#include <string_view>

namespace retsnoop {
namespace {

// A bit range, another field or a bit past the config word is no retprobe bit to set.
TEST(ProbePmu, FormatNamesOneConfigBit) {
  struct Row {
    std::string_view format;
    std::optional<int> bit;
  };
  const Row rows[] = {{"config:0\n", 0},
                      {"config:63", 63},
                      {"config:0-7\n", std::nullopt},
                      {"config1:0\n", std::nullopt},
                      {"config:64\n", std::nullopt},
                      {"config:\n", std::nullopt},
                      {"", std::nullopt}};
  for (const Row& r : rows) EXPECT_EQ(pmu_config_bit(r.format), r.bit) << r.format;
}

}  // namespace
}  // namespace retsnoop
