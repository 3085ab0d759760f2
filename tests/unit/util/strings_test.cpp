#include "util/strings.h"

#include <gtest/gtest.h>

namespace retsnoop {
namespace {

TEST(Strings, Trim) {
  EXPECT_EQ(trim("  a b \t\r\n"), "a b");
  EXPECT_EQ(trim(" \t "), "");
  EXPECT_EQ(trim(""), "");
  EXPECT_EQ(trim("x"), "x");
}

TEST(Strings, TrimRight) {
  EXPECT_EQ(trim_right("  a b \t\r"), "  a b");
  EXPECT_EQ(trim_right("   "), "");
  EXPECT_EQ(trim_right("name [mod]"), "name [mod]");
}

TEST(Strings, Join) {
  EXPECT_EQ(join({}, ", "), "");
  EXPECT_EQ(join({"a"}, ", "), "a");
  EXPECT_EQ(join({"a", "b", "c"}, ", "), "a, b, c");
}

}  // namespace
}  // namespace retsnoop
