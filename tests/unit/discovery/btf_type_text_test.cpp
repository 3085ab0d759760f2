#include "discovery/btf_type_text.h"

#include <bpf/btf.h>
#include <gtest/gtest.h>

#include "synthetic_btf.h"

namespace retsnoop {
namespace {

using test_support::SyntheticBtf;

// What parse_c_type() made of text, in one line: "TAG BASE *N [user]", or "(none)".
std::string parsed(const char* text) {
  std::optional<CTypeText> c = parse_c_type(text);
  if (!c) return "(none)";
  static const char* const kTags[] = {"", "struct ", "union ", "enum "};
  return kTags[static_cast<int>(c->tag)] + c->base + " *" + std::to_string(c->pointers) +
         (c->user ? " user" : "");
}

// Qualifiers are dropped and __user kept; integer specifiers come in any order.
TEST(CTypeText, DeclarationsAsTheFormatFilesWriteThem) {
  const std::pair<const char*, const char*> cases[] = {
      {"const char __user *const __user *", "char *2 user"},
      {"union bpf_attr *", "union bpf_attr *1"},
      {"struct __kernel_timespec __user*", "struct __kernel_timespec *1 user"},
      {"enum bpf_cmd", "enum bpf_cmd *0"},
      {"size_t", "size_t *0"},
      {"unsigned long", "unsigned long *0"},
      {"long unsigned int", "unsigned long *0"},
      {"unsigned", "unsigned int *0"},
      {"signed", "int *0"},
      {"long long", "long long *0"},
      {"short unsigned int", "unsigned short *0"},
      {"signed char", "signed char *0"},
      {"char", "char *0"},
      {"unsigned signed int", "(none)"},
      {"long long long", "(none)"},
      {"short long", "(none)"},
      {"long char", "(none)"},
  };
  for (const auto& [text, want] : cases) EXPECT_EQ(parsed(text), want) << text;
}

TEST(CTypeText, WhatIsNoPlainDeclarationIsRefused) {
  for (const char* text : {"", "   ", "const", "__user *", "* int", "int [4]", "int (*)(void)",
                           "struct", "struct a b", "size_t pid_t", "int ****", "a b c d e f g h i"})
    EXPECT_FALSE(parse_c_type(text)) << text;
}

class BtfTypeTextTest : public ::testing::Test {
 protected:
  SyntheticBtf b;
  int i32 = b.int_type("int", 4, BTF_INT_SIGNED);
  int u64 = b.int_type("long unsigned int", 8, 0);
  int chr = b.int_type("char", 1, BTF_INT_SIGNED);
  int size_t_id = b.typedef_of("size_t", u64);
  int attr = b.composite(true, "bpf_attr", 8, {{"map_type", i32, 0}});
  int stat = b.structure("stat", 8, {{"st_dev", u64, 0}});
  int cmd = b.enumeration("bpf_cmd", 4, {{"BPF_MAP_CREATE", 0}});
  int attr_ptr = b.ptr(attr);
  int const_char_ptr = b.ptr(b.konst(chr));
  int char_ptr_ptr = b.ptr(const_char_ptr);
  int void_ptr = b.ptr(0);
};

TEST_F(BtfTypeTextTest, NamedTypesAndThePointersTheKernelHas) {
  BtfTypeText types(b.get());
  EXPECT_EQ(types.find("int"), static_cast<uint32_t>(i32));
  EXPECT_EQ(types.find("unsigned long"), static_cast<uint32_t>(u64));
  EXPECT_EQ(types.find("size_t"), static_cast<uint32_t>(size_t_id));
  EXPECT_EQ(types.find("enum bpf_cmd"), static_cast<uint32_t>(cmd));
  EXPECT_EQ(types.find("union bpf_attr __user *"), static_cast<uint32_t>(attr_ptr));
  // Qualifiers on the way change nothing: const char * and char * are one pointer here.
  EXPECT_EQ(types.find("char __user *"), static_cast<uint32_t>(const_char_ptr));
  EXPECT_EQ(types.find("const char __user *const __user *"), static_cast<uint32_t>(char_ptr_ptr));
  EXPECT_EQ(types.find("void __user *"), static_cast<uint32_t>(void_ptr));
}

TEST_F(BtfTypeTextTest, WhatTheBtfDoesNotSpellIsNotFound) {
  BtfTypeText types(b.get());
  EXPECT_EQ(types.find("struct stat *"), 0u);      // no pointer to it in this BTF
  EXPECT_EQ(types.find("struct bpf_attr *"), 0u);  // a union, not a struct
  EXPECT_EQ(types.find("pid_t"), 0u);
  EXPECT_EQ(types.find("long long"), 0u);
  EXPECT_EQ(types.find("void"), 0u);
  EXPECT_EQ(types.find("int [4]"), 0u);
  EXPECT_EQ(BtfTypeText(nullptr).find("int"), 0u);
}

}  // namespace
}  // namespace retsnoop
