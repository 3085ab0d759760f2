#include "format/kernel_message_text.h"

#include <gtest/gtest.h>

namespace retsnoop::test {
namespace {

KernelMessageArg num(uint64_t v) { return {.value = v}; }
KernelMessageArg str(std::string s) { return {.value = 0xffff888000001000, .str = std::move(s)}; }

struct ExpandCase {
  const char* fmt;
  std::vector<KernelMessageArg> args;
  const char* want;
};

TEST(KernelMessageText, ExpandsEachConversion) {
  const ExpandCase cases[] = {
      {"Bad value for '%s'", {str("size")}, "Bad value for 'size'"},
      {"%d", {num(uint64_t(-22))}, "-22"},
      {"%d", {num(0xffffffff)}, "-1"},  // an int is the register's low half
      {"%i", {num(7)}, "7"},
      {"%u", {num(0x1ffffffff)}, "4294967295"},
      {"%x %X", {num(255), num(255)}, "ff FF"},
      {"%ld", {num(uint64_t(-5))}, "-5"},
      {"%lu", {num(uint64_t(-1))}, "18446744073709551615"},
      {"%lld %llx", {num(uint64_t(-2)), num(0x1234567890)}, "-2 1234567890"},
      {"%zu bytes", {num(4096)}, "4096 bytes"},
      {"%hhd %hu", {num(0x1ff), num(0x1ffff)}, "-1 65535"},
      {"%c!", {num('A')}, "A!"},
      {"100%%", {}, "100%"},
      {"[%5d|%-5d|%05d]", {num(42), num(42), num(42)}, "[   42|42   |00042]"},
      {"[%.2s|%6s|%-6s]", {str("abcdef"), str("ab"), str("ab")}, "[ab|    ab|ab    ]"},
      {"[%*d|%.*s]", {num(4), num(7), num(1), str("xyz")}, "[   7|x]"},
      {"%#x %+d", {num(16), num(3)}, "0x10 +3"},
  };
  for (const ExpandCase& c : cases) EXPECT_EQ(expand_kernel_format(c.fmt, c.args), c.want) << c.fmt;
}

TEST(KernelMessageText, PointerKindsAndUnknownConversionsStayAsWritten) {
  EXPECT_EQ(expand_kernel_format("at %pS, %pI4 then %d", {num(1), num(2), num(3)}),
            "at %pS, %pI4 then 3");
  EXPECT_EQ(expand_kernel_format("%p!", {num(1)}), "%p!");
  EXPECT_EQ(expand_kernel_format("%q %y", {num(1)}), "%q %y");
  EXPECT_EQ(expand_kernel_format("trailing %", {}), "trailing %");
}

TEST(KernelMessageText, MissingArgumentsAndBadStrings) {
  EXPECT_EQ(expand_kernel_format("%s and %d", {str("one")}), "one and %d");
  EXPECT_EQ(expand_kernel_format("%s|%s", {num(0), num(0x1234)}), "(null)|(efault)");
}

TEST(KernelMessageText, HostileWidthIsBounded) {
  std::string out = expand_kernel_format("%999999999d", {num(1)});
  EXPECT_LE(out.size(), 300u);
  EXPECT_EQ(out.back(), '1');
}

TEST(KernelMessageText, PrefixLiteralAndCut) {
  KernelMessage fs{.kind = KernelMessageKind::Fs,
                   .prefix = "tmpfs",
                   .fmt = "Bad value for '%s'",
                   .args = {str("size")}};
  EXPECT_EQ(kernel_message_text(fs, 200), "tmpfs: Bad value for 'size'");
  EXPECT_EQ(kernel_message_text(fs, 5), "tmpfs...");
  KernelMessage lit{
      .kind = KernelMessageKind::Verifier, .literal = true, .fmt = "R0 !read_ok %d\n"};
  EXPECT_EQ(kernel_message_text(lit, 200), "R0 !read_ok %d");
}

TEST(KernelMessageText, KindNames) {
  EXPECT_STREQ(kernel_message_kind_name(KernelMessageKind::Fs), "fs");
  EXPECT_STREQ(kernel_message_kind_name(KernelMessageKind::Extack), "extack");
  EXPECT_STREQ(kernel_message_kind_name(KernelMessageKind::Verifier), "verifier");
}

}  // namespace
}  // namespace retsnoop::test
