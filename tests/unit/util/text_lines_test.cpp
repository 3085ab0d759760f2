#include "util/text_lines.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace retsnoop {
namespace {

std::vector<std::string> lines_of(std::string_view text) {
  std::vector<std::string> out;
  for_each_line(text, [&](std::string_view line) { out.emplace_back(line); });
  return out;
}

TEST(TextLines, SplitsOnNewlines) {
  EXPECT_EQ(lines_of("a\nbb\n"), (std::vector<std::string>{"a", "bb"}));
}

TEST(TextLines, LastLineNeedsNoNewline) {
  EXPECT_EQ(lines_of("a\nbb"), (std::vector<std::string>{"a", "bb"}));
}

TEST(TextLines, KeepsEmptyLinesInside) {
  EXPECT_EQ(lines_of("a\n\nb\n"), (std::vector<std::string>{"a", "", "b"}));
}

TEST(TextLines, EmptyTextHasNoLines) { EXPECT_TRUE(lines_of("").empty()); }

}  // namespace
}  // namespace retsnoop
