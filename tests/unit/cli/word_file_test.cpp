#include "cli/word_file.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>

#include "util/error.h"
#include "util/regular_file.h"

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
    EXPECT_EQ(e.what(), "Failed to read '" + path + "': No such file or directory");
  }
}

void expect_refused(const std::string& path, const std::string& why) {
  try {
    read_words_file(path);
    ADD_FAILURE() << path << " was read";
  } catch (const UserError& e) {
    EXPECT_EQ(e.what(), "Failed to read '" + path + "': " + why);
  }
}

TEST(WordFile, DirectoryIsNotAWordList) {
  expect_refused(RS_TEST_BINARY_DIR, "a directory, not a regular file");
}

// Reading /dev/zero would never end, and opening a FIFO would wait for a writer.
TEST(WordFile, DevicesAndFifosAreRefused) {
  expect_refused("/dev/zero", "a character device, not a regular file");
  std::string fifo = temp_path("words.fifo");
  unlink(fifo.c_str());
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0) << std::strerror(errno);
  expect_refused(fifo, "a FIFO, not a regular file");
  unlink(fifo.c_str());
}

TEST(WordFile, SizeLimit) {
  std::string path = temp_path("words-huge.txt");
  std::ofstream(path) << "alpha\n";
  // Sparse: NUL bytes after the word, which the limit counts like any other.
  ASSERT_EQ(truncate(path.c_str(), kMaxListFileSize), 0) << std::strerror(errno);
  EXPECT_EQ(read_words_file(path).size(), 2u);  // "alpha", then the NULs as one word
  ASSERT_EQ(truncate(path.c_str(), kMaxListFileSize + 1), 0) << std::strerror(errno);
  expect_refused(path, "larger than 16 MiB");
  unlink(path.c_str());
}

}  // namespace
}  // namespace retsnoop
