#include "symbolize/process_start.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <string>

namespace retsnoop {
namespace {

// Fields 3 to 21, then the start time (22) and the rest.
const std::string kMiddle = " S 1 282 282 0 -1 4194560 122 0 0 0 3 5 0 0 20 0 1 0 ";
const std::string kTail = " 2433024 96 18446744073709551615 4194304 4980361 0 0 0 0\n";

TEST(ProcessStart, Field22) {
  EXPECT_EQ(parse_stat_start_time("282 (simfail)" + kMiddle + "12345" + kTail), 12345u);
}

// Any process names itself: spaces and parentheses in the name do not shift the fields.
TEST(ProcessStart, NameWithSpacesAndParentheses) {
  EXPECT_EQ(parse_stat_start_time("282 (a) 9 9 (b c))" + kMiddle + "77" + kTail), 77u);
}

TEST(ProcessStart, Malformed) {
  EXPECT_FALSE(parse_stat_start_time(""));
  EXPECT_FALSE(parse_stat_start_time("282 simfail S 1 2 3"));
  EXPECT_FALSE(parse_stat_start_time("282 (simfail) S 1 282"));
  EXPECT_FALSE(parse_stat_start_time("282 (simfail)" + kMiddle + "12x45" + kTail));
  EXPECT_FALSE(parse_stat_start_time("282 (simfail)" + kMiddle + "-1" + kTail));
}

TEST(ProcessStart, OwnProcessAndAGoneOne) {
  auto own = process_start_time(uint32_t(getpid()));
  ASSERT_TRUE(own);
  EXPECT_EQ(process_start_time(uint32_t(getpid())), own);
  EXPECT_FALSE(process_start_time(uint32_t(1) << 30));  // above PID_MAX_LIMIT
}

}  // namespace
}  // namespace retsnoop
