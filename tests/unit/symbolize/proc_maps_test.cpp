#include "symbolize/proc_maps.h"

#include <gtest/gtest.h>
#include <sys/mman.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <string>
#include <vector>

namespace retsnoop {
namespace {

// An entry with its path copied out of the parser's buffer.
struct Entry {
  uint64_t start, end, file_offset, dev, inode;
  std::string path;
  bool path_cut;
  bool operator==(const Entry&) const = default;
};

Entry copy(const MapsEntry& e) {
  return {e.start, e.end, e.file_offset, e.dev, e.inode, std::string(e.path), e.path_cut};
}

// text fed in pieces of at most piece bytes.
std::vector<Entry> parse(std::string_view text, size_t piece = std::string_view::npos) {
  std::vector<Entry> out;
  ProcMapsParser p;
  for (size_t at = 0; at < text.size(); at += piece)
    p.feed(text.substr(at, piece), [&](const MapsEntry& e) {
      out.push_back(copy(e));
      return true;
    });
  p.finish();
  return out;
}

std::string line(uint64_t start, const std::string& perms, const std::string& path) {
  char head[128];
  std::snprintf(head, sizeof(head), "%012lx-%012lx %s 00001000 fd:01 1234                  ",
                static_cast<unsigned long>(start), static_cast<unsigned long>(start + 0x1000),
                perms.c_str());
  return head + path + "\n";
}

const char* kSample =
    "55d0c6a00000-55d0c6a01000 r--p 00000000 fd:01 1234                       /usr/bin/tool\n"
    "55d0c6a01000-55d0c6a02000 r-xp 00001000 fd:01 1234                       /usr/bin/tool\n"
    "55d0c7000000-55d0c7021000 rw-p 00000000 00:00 0                          [heap]\n"
    "7f2a1c000000-7f2a1c001000 rwxp 00000000 00:00 0 \n"
    "7f2a1c200000-7f2a1c228000 r-xp 00028000 fd:01 99   /lib/x86_64-linux-gnu/libc.so.6\n"
    "7f2a1c228000-7f2a1c229000 rw-p 00050000 fd:01 99   /lib/x86_64-linux-gnu/libc.so.6\n"
    "7f2a1c300000-7f2a1c301000 r-xp 00000000 103:1a 77   /tmp/my tool (deleted)\n"
    "7ffd1b3f2000-7ffd1b3f4000 r-xp 00000000 00:00 0                          [vdso]\n"
    "garbage\n"
    "7f2a1c400000-7f2a1c401000 r-xp 0000zz00 fd:01 5 /bad/offset\n";

const std::vector<Entry> kSampleWant = {
    {0x55d0c6a01000, 0x55d0c6a02000, 0x1000, makedev(0xfd, 1), 1234, "/usr/bin/tool", false},
    {0x7f2a1c200000, 0x7f2a1c228000, 0x28000, makedev(0xfd, 1), 99,
     "/lib/x86_64-linux-gnu/libc.so.6", false},
    {0x7f2a1c300000, 0x7f2a1c301000, 0, makedev(0x103, 0x1a), 77, "/tmp/my tool", false},
};

TEST(ProcMaps, KeepsExecutableFileMappingsOnly) { EXPECT_EQ(parse(kSample), kSampleWant); }

// read() hands the file over in pieces that end anywhere in a line.
TEST(ProcMaps, LinesSplitAcrossReads) {
  for (size_t piece : {1, 2, 7, 64}) EXPECT_EQ(parse(kSample, piece), kSampleWant) << piece;
}

TEST(ProcMaps, EmptyText) { EXPECT_TRUE(parse("").empty()); }

// A last line without its newline may have lost the end of its path.
TEST(ProcMaps, TruncatedLastLineIsSkipped) {
  std::string text = line(0x1000, "r-xp", "/usr/bin/tool");
  text += line(0x9000, "r-xp", "/usr/lib/libfoo.so");
  text.pop_back();
  std::vector<Entry> got = parse(text, 5);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].path, "/usr/bin/tool");
}

// A path longer than PATH_MAX is kept cut, the rest of its line skipped; the next line is whole.
TEST(ProcMaps, OverlongPathIsCutAndTheNextLineStillParsed) {
  std::string deep = "/" + std::string(3 * ProcMapsParser::kMaxLine, 'd') + "/exe";
  std::string text = line(0x1000, "r-xp", deep) + line(0x9000, "r-xp", "/usr/bin/next");
  for (size_t piece : {size_t(100), size_t(4096), text.size()}) {
    std::vector<Entry> got = parse(text, piece);
    ASSERT_EQ(got.size(), 2u);
    EXPECT_TRUE(got[0].path_cut);
    EXPECT_EQ(got[0].path, deep.substr(0, ProcMapsParser::kMaxPath));
    EXPECT_EQ(got[0].start, 0x1000u);
    EXPECT_FALSE(got[1].path_cut);
    EXPECT_EQ(got[1].path, "/usr/bin/next");
  }
}

// A path of exactly PATH_MAX bytes is whole.
TEST(ProcMaps, PathOfTheLimitIsWhole) {
  std::string path = "/" + std::string(ProcMapsParser::kMaxPath - 1, 'p');
  std::vector<Entry> got = parse(line(0x1000, "r-xp", path));
  ASSERT_EQ(got.size(), 1u);
  EXPECT_FALSE(got[0].path_cut);
  EXPECT_EQ(got[0].path, path);
}

// A line that is all number, with no room left for its fields' separators, is skipped whole.
TEST(ProcMaps, OverlongFieldIsSkipped) {
  std::string text =
      std::string(3 * ProcMapsParser::kMaxLine, '7') + "\n" + line(0x9000, "r-xp", "/usr/bin/next");
  std::vector<Entry> got = parse(text, 1000);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].path, "/usr/bin/next");
}

// A memory file standing in for /proc/PID/maps.
int maps_file(const std::string& text) {
  int fd = memfd_create("rs_maps_test", MFD_CLOEXEC);
  EXPECT_EQ(write(fd, text.data(), text.size()), ssize_t(text.size()));
  EXPECT_EQ(lseek(fd, 0, SEEK_SET), 0);
  return fd;
}

// Tens of thousands of long lines, as a process can list, are read through one small buffer.
TEST(ProcMaps, ManyMappingsAreStreamed) {
  constexpr size_t kLines = 60000;
  std::string path = "/" + std::string(300, 'x') + "/lib.so";
  std::string text;
  for (size_t i = 0; i < kLines; ++i)
    text += line(0x10000 + i * 0x2000, i % 2 ? "r--p" : "r-xp", path);
  int fd = maps_file(text);
  size_t n = 0;
  uint64_t last = 0;
  EXPECT_EQ(read_proc_maps(fd,
                           [&](const MapsEntry& e) {
                             EXPECT_EQ(e.path, path);
                             EXPECT_GT(e.start, last);
                             last = e.start;
                             ++n;
                             return true;
                           }),
            0);
  EXPECT_EQ(n, kLines / 2);
  close(fd);
}

TEST(ProcMaps, HandlerStopsTheRead) {
  std::string text;
  for (uint64_t i = 0; i < 100; ++i) text += line(0x10000 + i * 0x2000, "r-xp", "/bin/x");
  int fd = maps_file(text);
  size_t n = 0;
  EXPECT_EQ(read_proc_maps(fd, [&](const MapsEntry&) { return ++n < 10; }), 0);
  EXPECT_EQ(n, 10u);
  close(fd);
}

TEST(ProcMaps, ReadErrorIsReturned) {
  EXPECT_EQ(read_proc_maps(-1, [](const MapsEntry&) { return true; }), -EBADF);
}

}  // namespace
}  // namespace retsnoop
