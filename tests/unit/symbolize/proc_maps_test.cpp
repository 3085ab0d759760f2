#include "symbolize/proc_maps.h"

#include <gtest/gtest.h>
#include <sys/sysmacros.h>

namespace retsnoop {
namespace {

TEST(ProcMaps, KeepsFileMappingsOnly) {
  const char* text =
      "55d0c6a00000-55d0c6a01000 r--p 00000000 fd:01 1234                       /usr/bin/tool\n"
      "55d0c6a01000-55d0c6a02000 r-xp 00001000 fd:01 1234                       /usr/bin/tool\n"
      "55d0c7000000-55d0c7021000 rw-p 00000000 00:00 0                          [heap]\n"
      "7f2a1c000000-7f2a1c001000 rw-p 00000000 00:00 0 \n"
      "7f2a1c200000-7f2a1c228000 r-xp 00028000 fd:01 99   /lib/x86_64-linux-gnu/libc.so.6\n"
      "7f2a1c300000-7f2a1c301000 r-xp 00000000 103:1a 77   /tmp/my tool (deleted)\n"
      "7ffd1b3f2000-7ffd1b3f4000 r-xp 00000000 00:00 0                          [vdso]\n"
      "garbage\n";
  std::vector<MappedRange> want = {
      {0x55d0c6a00000, 0x55d0c6a01000, 0, makedev(0xfd, 1), 1234, "/usr/bin/tool"},
      {0x55d0c6a01000, 0x55d0c6a02000, 0x1000, makedev(0xfd, 1), 1234, "/usr/bin/tool"},
      {0x7f2a1c200000, 0x7f2a1c228000, 0x28000, makedev(0xfd, 1), 99,
       "/lib/x86_64-linux-gnu/libc.so.6"},
      {0x7f2a1c300000, 0x7f2a1c301000, 0, makedev(0x103, 0x1a), 77, "/tmp/my tool"},
  };
  EXPECT_EQ(parse_proc_maps(text), want);
}

TEST(ProcMaps, EmptyText) { EXPECT_TRUE(parse_proc_maps("").empty()); }

}  // namespace
}  // namespace retsnoop
