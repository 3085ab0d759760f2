#include "util/file_text.h"

#include <gtest/gtest.h>

#include <fstream>

namespace retsnoop {
namespace {

class SplitTextFileTest : public ::testing::Test {
 protected:
  std::string write(const std::string& text) {
    std::string path = std::string(RS_TEST_BINARY_DIR) + "/split_text_file_test.txt";
    std::ofstream(path) << text;
    return path;
  }
};

TEST_F(SplitTextFileTest, ReadsThroughTheLineThenTheRest) {
  auto file = SplitTextFile::open(write("a T _stext\nb T _etext\nc D data\n"));
  ASSERT_TRUE(file.has_value());
  EXPECT_EQ(file->read_through_line(" _etext"), "a T _stext\nb T _etext\n");
  EXPECT_FALSE(file->complete());
  EXPECT_EQ(file->read_rest(), "c D data\n");
  EXPECT_TRUE(file->complete());
  EXPECT_EQ(file->read_rest(), "");
}

// Lines that merely contain the text, or go on after it, do not end the head.
TEST_F(SplitTextFileTest, TheTextMustEndALine) {
  auto file = SplitTextFile::open(write("x _etext_end\ny _etext\t[mod]\nz _etext\nrest\n"));
  ASSERT_TRUE(file.has_value());
  EXPECT_EQ(file->read_through_line(" _etext"), "x _etext_end\ny _etext\t[mod]\nz _etext\n");
  EXPECT_EQ(file->read_rest(), "rest\n");
}

TEST_F(SplitTextFileTest, WithoutTheLineReadsEverything) {
  auto file = SplitTextFile::open(write("a\nb\n"));
  ASSERT_TRUE(file.has_value());
  EXPECT_EQ(file->read_through_line(" _etext"), "a\nb\n");
  EXPECT_TRUE(file->complete());
  EXPECT_EQ(file->read_rest(), "");
}

// The file is read in chunks; a line split between two of them is still found.
TEST_F(SplitTextFileTest, FindsALineAcrossReadChunks) {
  std::string filler(64 * 1024 - 5, 'f');
  std::string head = filler + "\nT _etext\n";
  auto file = SplitTextFile::open(write(head + std::string(100000, 'r')));
  ASSERT_TRUE(file.has_value());
  EXPECT_EQ(file->read_through_line(" _etext"), head);
  EXPECT_EQ(file->read_rest()->size(), 100000u);
}

TEST_F(SplitTextFileTest, MissingFileIsNullopt) {
  EXPECT_FALSE(SplitTextFile::open("/nonexistent/kallsyms").has_value());
}

}  // namespace
}  // namespace retsnoop
