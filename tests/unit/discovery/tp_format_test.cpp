#include "discovery/tp_format.h"

#include <gtest/gtest.h>

#include "temp_dir.h"

namespace retsnoop {
namespace {

// Laid out like the kernel's events/sched/sched_process_exec/format.
constexpr const char* kExecFormat =
    "name: sched_process_exec\n"
    "ID: 306\n"
    "format:\n"
    "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
    "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
    "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
    "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
    "\n"
    "\tfield:__data_loc char[] filename;\toffset:8;\tsize:4;\tsigned:0;\n"
    "\tfield:pid_t pid;\toffset:12;\tsize:4;\tsigned:1;\n"
    "\tfield:pid_t old_pid;\toffset:16;\tsize:4;\tsigned:1;\n"
    "\n"
    "print fmt: \"filename=%s pid=%d old_pid=%d\", __get_str(filename), REC->pid, REC->old_pid\n";

TEST(TpFormat, FieldsAfterTheCommonHeaderInRecordOrder) {
  std::vector<TpField> f = parse_tp_format(kExecFormat);
  ASSERT_EQ(f.size(), 3u);
  EXPECT_EQ(f[0].name, "filename");
  EXPECT_EQ(f[0].type, "char");
  EXPECT_EQ(f[0].loc, TpLoc::Data);
  EXPECT_EQ(f[0].offset, 8u);
  EXPECT_EQ(f[0].size, 4u);
  EXPECT_EQ(f[0].elem_size, 1u);
  EXPECT_TRUE(f[0].text);
  EXPECT_EQ(f[1].name, "pid");
  EXPECT_EQ(f[1].type, "pid_t");
  EXPECT_EQ(f[1].loc, TpLoc::Fixed);
  EXPECT_EQ(f[1].offset, 12u);
  EXPECT_TRUE(f[1].is_signed);
  EXPECT_EQ(f[1].elem_size, 0u);
  EXPECT_FALSE(f[1].text);
  EXPECT_EQ(f[2].name, "old_pid");
  EXPECT_EQ(f[2].offset, 16u);
}

TEST(TpFormat, ArraysWithNumericOrNamedLengthsAndPointers) {
  std::vector<TpField> f = parse_tp_format(
      "\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
      "\tfield:char next_comm[TASK_COMM_LEN];\toffset:24;\tsize:16;\tsigned:0;\n"
      "\tfield:u32 addrs[4];\toffset:40;\tsize:16;\tsigned:0;\n"
      "\tfield:unsigned long caller[TRACE_LEN];\toffset:56;\tsize:32;\tsigned:0;\n"
      "\tfield:const void * skbaddr;\toffset:88;\tsize:8;\tsigned:0;\n"
      "\tfield:__rel_loc u8[] data;\toffset:96;\tsize:4;\tsigned:0;\n");
  ASSERT_EQ(f.size(), 6u);
  EXPECT_EQ(f[0].name, "prev_comm");
  EXPECT_EQ(f[0].elem_size, 1u);
  EXPECT_TRUE(f[0].text);
  EXPECT_EQ(f[1].name, "next_comm");
  EXPECT_TRUE(f[1].text);
  EXPECT_EQ(f[2].elem_size, 4u);
  EXPECT_FALSE(f[2].text);
  EXPECT_EQ(f[3].name, "caller");
  EXPECT_EQ(f[3].elem_size, 8u);
  EXPECT_TRUE(f[4].pointer);
  EXPECT_EQ(f[4].type, "const void *");
  EXPECT_EQ(f[5].loc, TpLoc::Relative);
  EXPECT_EQ(f[5].elem_size, 1u);
  EXPECT_FALSE(f[5].text);  // bytes, not characters
}

TEST(TpFormat, MalformedLinesAreSkipped) {
  std::vector<TpField> f = parse_tp_format(
      "\tfield:int;\toffset:8;\tsize:4;\tsigned:1;\n"       // no name
      "\tfield:int a;\toffset:x;\tsize:4;\tsigned:1;\n"     // bad offset
      "\tfield:int b;\toffset:8;\tsize:0;\tsigned:1;\n"     // no size
      "\tfield:__data_loc char[] c;\toffset:8;\tsize:8;\n"  // a locator is 4 bytes
      "\tfield:int d;\toffset:12;\tsize:4;\n");             // no signed: unsigned
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].name, "d");
  EXPECT_FALSE(f[0].is_signed);
  EXPECT_TRUE(parse_tp_format("").empty());
}

TEST(TpFormat, ReadFromTheFirstTracefsThatHasTheEvent) {
  test::TempDir dir;
  dir.write("b/events/sched/sched_process_exec/format", kExecFormat);
  std::vector<std::string> dirs{dir.path() + "/a", dir.path() + "/b"};
  std::optional<std::string> text = read_tp_format(dirs, "sched", "sched_process_exec");
  ASSERT_TRUE(text);
  EXPECT_EQ(*text, kExecFormat);
  EXPECT_FALSE(read_tp_format(dirs, "sched", "nope"));
}

}  // namespace
}  // namespace retsnoop
