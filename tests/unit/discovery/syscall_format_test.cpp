#include "discovery/syscall_format.h"

#include <gtest/gtest.h>

#include <string>

namespace retsnoop {
namespace {

constexpr const char* kSysEnterHeader =
    "name: sys_enter_bpf\n"
    "ID: 795\n"
    "format:\n"
    "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
    "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
    "\n"
    "\tfield:int __syscall_nr;\toffset:8;\tsize:4;\tsigned:1;\n";

std::string field(const std::string& decl, int offset, int size = 8) {
  return "\tfield:" + decl + ";\toffset:" + std::to_string(offset) +
         ";\tsize:" + std::to_string(size) + ";\tsigned:0;\n";
}

// Laid out like the kernel's events/syscalls/sys_enter_bpf/format.
const std::string kBpfFormat = std::string(kSysEnterHeader) + field("int cmd", 16) +
                               field("union bpf_attr __user * uattr", 24) +
                               field("unsigned int size", 32) +
                               "\nprint fmt: \"cmd: 0x%08lx, uattr: 0x%08lx, size: 0x%08lx\", "
                               "((unsigned long)(REC->cmd)), ((unsigned long)(REC->uattr)), "
                               "((unsigned long)(REC->size))\n";

TEST(SyscallFormat, ParametersInOrderWithTheirDeclaredTypes) {
  std::optional<std::vector<SyscallParam>> p = parse_syscall_format(kBpfFormat);
  ASSERT_TRUE(p);
  ASSERT_EQ(p->size(), 3u);
  EXPECT_EQ((*p)[0].name, "cmd");
  EXPECT_EQ((*p)[0].type, "int");
  EXPECT_EQ((*p)[1].name, "uattr");
  EXPECT_EQ((*p)[1].type, "union bpf_attr __user *");
  EXPECT_EQ((*p)[2].name, "size");
  EXPECT_EQ((*p)[2].type, "unsigned int");
}

TEST(SyscallFormat, NoParametersIsAnEmptyList) {
  std::optional<std::vector<SyscallParam>> p = parse_syscall_format(kSysEnterHeader);
  ASSERT_TRUE(p);
  EXPECT_TRUE(p->empty());
}

TEST(SyscallFormat, FieldsOfTheEventItselfAfterTheArgumentsEndTheList) {
  std::string text = std::string(kSysEnterHeader) + field("const char __user * filename", 16) +
                     field("__data_loc char[] __filename_val", 24, 4) + field("int __pad", 28, 4);
  std::optional<std::vector<SyscallParam>> p = parse_syscall_format(text);
  ASSERT_TRUE(p);
  ASSERT_EQ(p->size(), 1u);
  EXPECT_EQ((*p)[0].name, "filename");
}

TEST(SyscallFormat, AnythingButTheKernelsLayoutIsRefused) {
  EXPECT_FALSE(parse_syscall_format(""));
  EXPECT_FALSE(parse_syscall_format("garbage\n\tfield:int x;\toffset:16;\tsize:8;\n"));
  // No system call number first.
  EXPECT_FALSE(parse_syscall_format(field("int cmd", 16)));
  // A gap, an overlap, a short field, an array, a name that is no identifier.
  EXPECT_FALSE(parse_syscall_format(std::string(kSysEnterHeader) + field("int cmd", 24)));
  EXPECT_FALSE(
      parse_syscall_format(std::string(kSysEnterHeader) + field("int a", 16) + field("int b", 16)));
  EXPECT_FALSE(parse_syscall_format(std::string(kSysEnterHeader) + field("int cmd", 16, 4)));
  EXPECT_FALSE(parse_syscall_format(std::string(kSysEnterHeader) + field("char name[8]", 16)));
  EXPECT_FALSE(parse_syscall_format(std::string(kSysEnterHeader) + field("int 9lives", 16)));
  EXPECT_FALSE(parse_syscall_format(std::string(kSysEnterHeader) + field("int a-b", 16)));
  EXPECT_FALSE(parse_syscall_format(std::string(kSysEnterHeader) +
                                    field("int " + std::string(65, 'x'), 16)));
}

TEST(SyscallFormat, AtMostSixArguments) {
  std::string six(kSysEnterHeader);
  for (int i = 0; i < 6; ++i) six += field("long a" + std::to_string(i), 16 + 8 * i);
  ASSERT_TRUE(parse_syscall_format(six));
  EXPECT_EQ(parse_syscall_format(six)->size(), 6u);
  EXPECT_FALSE(parse_syscall_format(six + field("long a6", 64)));
}

TEST(SyscallWrapper, NamesTheSystemCall) {
  EXPECT_EQ(syscall_of_wrapper("__x64_sys_bpf"), "bpf");
  EXPECT_EQ(syscall_of_wrapper("__arm64_sys_openat"), "openat");
  EXPECT_FALSE(syscall_of_wrapper("__sys_bpf"));
  EXPECT_FALSE(syscall_of_wrapper("__ia32_sys_bpf"));
  EXPECT_FALSE(syscall_of_wrapper("__x64_compat_sys_bpf"));
  EXPECT_FALSE(syscall_of_wrapper("__x64_sys_"));
  EXPECT_FALSE(syscall_of_wrapper("__x64_sys_bpf.cold"));
  EXPECT_FALSE(syscall_of_wrapper("x__x64_sys_bpf"));
}

}  // namespace
}  // namespace retsnoop
