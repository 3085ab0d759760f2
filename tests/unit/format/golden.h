// Exact comparison of formatted text with a golden file, reporting the first differing line.
#pragma once

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace retsnoop::test {

inline std::string read_golden(const std::string& name) {
  std::ifstream in(std::string(RS_FIXTURES_DIR) + "/format/" + name);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

inline std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// Lines are quoted so that trailing spaces show.
inline ::testing::AssertionResult matches_golden(const std::string& actual,
                                                 const std::string& golden_name) {
  std::string expected = read_golden(golden_name);
  if (actual == expected) return ::testing::AssertionSuccess();
  std::vector<std::string> want = split_lines(expected), got = split_lines(actual);
  size_t i = 0;
  while (i < want.size() && i < got.size() && want[i] == got[i]) ++i;
  auto quoted = [](const std::vector<std::string>& v, size_t n) {
    return n < v.size() ? "'" + v[n] + "'" : std::string("<end of text>");
  };
  return ::testing::AssertionFailure()
         << golden_name << " differs at line " << i + 1 << "\n  expected: " << quoted(want, i)
         << "\n  actual:   " << quoted(got, i) << "\n(" << expected.size() << " bytes expected, "
         << actual.size() << " bytes actual)\nfull actual text:\n"
         << actual << "<end of text>";
}

}  // namespace retsnoop::test
