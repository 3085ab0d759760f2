#include "discovery/btf_type_text.h"

#include <bpf/btf.h>
#include <gtest/gtest.h>

#include "synthetic_btf.h"

namespace retsnoop {
namespace {

using test_support::SyntheticBtf;

TEST(CTypeText, QualifiersDroppedUserKept) {
  std::optional<CTypeText> c = parse_c_type("const char __user *const __user *");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->tag, CTypeText::Tag::None);
  EXPECT_EQ(c->base, "char");
  EXPECT_EQ(c->pointers, 2u);
  EXPECT_TRUE(c->user);

  c = parse_c_type("union bpf_attr *");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->tag, CTypeText::Tag::Union);
  EXPECT_EQ(c->base, "bpf_attr");
  EXPECT_EQ(c->pointers, 1u);
  EXPECT_FALSE(c->user);

  c = parse_c_type("struct __kernel_timespec __user*");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->tag, CTypeText::Tag::Struct);
  EXPECT_EQ(c->base, "__kernel_timespec");

  c = parse_c_type("size_t");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->base, "size_t");
  EXPECT_EQ(c->pointers, 0u);
}

TEST(CTypeText, IntegerSpecifiersInAnyOrder) {
  auto base = [](const char* text) {
    std::optional<CTypeText> c = parse_c_type(text);
    return c ? c->base : std::string("(none)");
  };
  EXPECT_EQ(base("unsigned long"), "unsigned long");
  EXPECT_EQ(base("long unsigned int"), "unsigned long");
  EXPECT_EQ(base("unsigned"), "unsigned int");
  EXPECT_EQ(base("signed"), "int");
  EXPECT_EQ(base("long long"), "long long");
  EXPECT_EQ(base("short unsigned int"), "unsigned short");
  EXPECT_EQ(base("signed char"), "signed char");
  EXPECT_EQ(base("char"), "char");
  EXPECT_EQ(base("unsigned signed int"), "(none)");
  EXPECT_EQ(base("long long long"), "(none)");
  EXPECT_EQ(base("short long"), "(none)");
  EXPECT_EQ(base("long char"), "(none)");
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
