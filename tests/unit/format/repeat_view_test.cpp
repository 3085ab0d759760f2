#include "format/repeat_view.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "wall_clock.h"

namespace retsnoop {
namespace {

using test::kMonoToRealNs;
using test::mono_ns_at;

RepeatGroup group() {
  return {.first_id = 5,
          .count = 41,
          .first_ns = mono_ns_at(10, 0, 0, 1),
          .last_ns = mono_ns_at(10, 0, 0, 500000),
          .tasks = {{7, 7}, {9, 7}}};
}

TEST(RepeatView, TextLine) {
  test::use_utc();
  EXPECT_EQ(format_repeats(group(), "0123456789abcdef", kMonoToRealNs),
            "... and 41 more identical sessions (fingerprint 0123456789abcdef, TID/PID 7/7 9/7, "
            "first 10:00:00.000001, last 10:00:00.500000)\n\n");
}

TEST(RepeatView, OneRepeatAndMoreTasksThanNamed) {
  test::use_utc();
  RepeatGroup g = group();
  g.count = 1;
  g.more_tasks = true;
  std::string line = format_repeats(g, "0123456789abcdef", kMonoToRealNs);
  EXPECT_NE(line.find("... and 1 more identical session (fingerprint"), std::string::npos) << line;
  EXPECT_NE(line.find("TID/PID 7/7 9/7 ..., first"), std::string::npos) << line;
}

TEST(RepeatView, JsonLine) {
  test::use_utc();
  std::string line = format_repeats_json(group(), "0123456789abcdef", kMonoToRealNs);
  ASSERT_EQ(line.back(), '\n');
  auto j = nlohmann::json::parse(line);
  EXPECT_EQ(j["type"], "repeats");
  EXPECT_EQ(j["count"], 41);
  EXPECT_EQ(j["fingerprint"], "0123456789abcdef");
  EXPECT_EQ(j["tasks"].size(), 2u);
  EXPECT_EQ(j["tasks"][1]["tid"], 9);
  EXPECT_EQ(j["first"], "10:00:00.000001");
  EXPECT_EQ(j["last_ns"], mono_ns_at(10, 0, 0, 500000));
}

}  // namespace
}  // namespace retsnoop
