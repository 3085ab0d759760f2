#include "cli/word_file.h"

#include <gtest/gtest.h>

#include <fstream>

#include "util/error.h"

namespace retsnoop {
namespace {

std::string temp_path(const char* name) { return std::string(RS_TEST_BINARY_DIR) + "/" + name; }

TEST(WordFile, SplitsOnAnyWhitespace) {
  std::string path = temp_path("words.txt");
  std::ofstream(path) << "  alpha beta\n\tgamma\r\n\n  delta";
  EXPECT_EQ(read_words_file(path), (std::vector<std::string>{"alpha", "beta", "gamma", "delta"}));
}

TEST(WordFile, EmptyFileHasNoWords) {
  std::string path = temp_path("words-empty.txt");
  std::ofstream(path) << "\n \n";
  EXPECT_TRUE(read_words_file(path).empty());
}

TEST(WordFile, MissingFile) {
  std::string path = temp_path("no-such-words.txt");
  try {
    read_words_file(path);
    FAIL() << "missing file was read";
  } catch (const UserError& e) {
    EXPECT_EQ(e.what(), "Failed to open '" + path + "': No such file or directory");
  }
}

TEST(WordFile, DirectoryIsNotAWordList) {
  try {
    read_words_file(RS_TEST_BINARY_DIR);
    FAIL() << "a directory was read";
  } catch (const UserError& e) {
    EXPECT_EQ(e.what(), std::string("Failed to read '") + RS_TEST_BINARY_DIR + "': Is a directory");
  }
}

}  // namespace
}  // namespace retsnoop
