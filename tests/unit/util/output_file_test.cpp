#include "util/output_file.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

#include "temp_dir.h"
#include "util/error.h"

namespace retsnoop::test {
namespace {

std::string content(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

size_t entries(const TempDir& dir) {
  auto it = std::filesystem::directory_iterator(dir.path());
  return std::distance(it, std::filesystem::directory_iterator());
}

// An export path that holds the file of an earlier run.
class OutputFileOverOld : public ::testing::Test {
 protected:
  TempDir dir_;
  std::string path_ = dir_.write("stacks.folded", "old\n");
};

mode_t file_mode_of(const std::string& path) {
  struct stat st {};
  EXPECT_EQ(stat(path.c_str(), &st), 0) << path;
  return st.st_mode & 07777;
}

// A reader sees the old file until the new one is complete, then the new one; the new file has
// no name in the directory while it is written (O_TMPFILE, which the test's file system has), and
// nothing else is left there.
TEST_F(OutputFileOverOld, ReplacesThePathAtClose) {
  OutputFile f(path_);
  f.write("new\n");
  EXPECT_EQ(content(path_), "old\n");
  EXPECT_EQ(entries(dir_), 1u);
  EXPECT_TRUE(f.close());
  EXPECT_EQ(content(path_), "new\n");
  EXPECT_EQ(entries(dir_), 1u);
}

// Traces name other users' processes and files: only root reads them, whatever the umask and
// whatever mode the file they replace had.
TEST_F(OutputFileOverOld, OnlyTheOwnerCanReadTheNewFile) {
  ASSERT_EQ(chmod(path_.c_str(), 0644), 0);
  mode_t old = umask(0);
  OutputFile f(path_);
  f.write("new\n");
  EXPECT_TRUE(f.close());
  umask(old);
  EXPECT_EQ(file_mode_of(path_), 0600u);
  EXPECT_EQ(content(path_), "new\n");
}

TEST(OutputFile, CreatesAMissingFile) {
  TempDir dir;
  std::string path = dir.path() + "/trace.json";
  {
    OutputFile f(path);
    f.write("{}\n");
    EXPECT_TRUE(f.close());
  }
  EXPECT_EQ(file_mode_of(path), 0600u);
  EXPECT_EQ(content(path), "{}\n");
}

TEST_F(OutputFileOverOld, WithoutCloseThePathStaysAsItWas) {
  std::optional<OutputFile> f(std::in_place, path_);
  f->write("half");
  f.reset();
  EXPECT_EQ(content(path_), "old\n");
  EXPECT_EQ(entries(dir_), 1u);
}

// A link planted where root will write must neither be followed nor replaced.
TEST(OutputFile, RefusesASymlink) {
  TempDir dir;
  std::string target = dir.write("passwd", "root:x:0:0\n");
  std::string path = dir.path() + "/trace.json";
  ASSERT_EQ(symlink(target.c_str(), path.c_str()), 0);
  EXPECT_THROW(OutputFile{path}, UserError);
  EXPECT_EQ(content(target), "root:x:0:0\n");
  EXPECT_TRUE(std::filesystem::is_symlink(path));
  EXPECT_EQ(entries(dir), 2u);
}

// Opening a FIFO for writing would wait for a reader, with the stop signals already blocked.
TEST(OutputFile, RefusesAFifoWithoutBlocking) {
  TempDir dir;
  std::string path = dir.path() + "/fifo";
  ASSERT_EQ(mkfifo(path.c_str(), 0600), 0);
  try {
    OutputFile f(path);
    ADD_FAILURE() << "a FIFO was accepted";
  } catch (const UserError& e) {
    EXPECT_EQ(std::string(e.what()), "cannot write " + path + ": a FIFO, not a regular file");
  }
}

TEST(OutputFile, RefusesADirectoryAndAMissingParent) {
  TempDir dir;
  EXPECT_THROW(OutputFile{dir.path()}, UserError);
  EXPECT_THROW(OutputFile{dir.path() + "/missing/trace.json"}, UserError);
  EXPECT_EQ(entries(dir), 0u);
}

}  // namespace
}  // namespace retsnoop::test
