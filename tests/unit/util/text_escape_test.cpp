#include "util/text_escape.h"

#include <gtest/gtest.h>

namespace retsnoop {
namespace {

TEST(TextEscape, PrintableAsciiIsUnchanged) {
  EXPECT_EQ(escaped("simfail/do_sys_open+0x1a (fs/open.c:12:3) [mod]"),
            "simfail/do_sys_open+0x1a (fs/open.c:12:3) [mod]");
  EXPECT_EQ(escaped(""), "");
}

TEST(TextEscape, ControlBytesBecomeVisible) {
  EXPECT_EQ(escaped("e\"v\\i\nl\x1b[1m"), "e\"v\\\\i\\nl\\x1b[1m");
  EXPECT_EQ(escaped("a\tb\rc"), "a\\tb\\rc");
  EXPECT_EQ(escaped(std::string_view("x\0y", 3)), "x\\x00y");
  EXPECT_EQ(escaped("\x7f"), "\\x7f");
}

// An 8-bit CSI (0x9b) or a UTF-8 encoded C1 control acts on some terminals: every byte past
// ASCII is escaped, not only the invalid ones.
TEST(TextEscape, BytesPastAsciiAreEscaped) {
  EXPECT_EQ(escaped("\x9b"
                    "2J"),
            "\\x9b2J");
  EXPECT_EQ(escaped("\xc2\x9b"), "\\xc2\\x9b");
  EXPECT_EQ(escaped("caf\xc3\xa9"), "caf\\xc3\\xa9");
}

TEST(TextEscape, NoEscapedTextHoldsAControlByte) {
  std::string all;
  for (int c = 0; c < 256; ++c) all += static_cast<char>(c);
  for (unsigned char c : escaped(all)) EXPECT_TRUE(c >= 0x20 && c < 0x7f) << int(c);
}

TEST(TextEscape, QuoteIsEscapedWhenGiven) {
  std::string out = "'";
  append_escaped(out, "it's", '\'');
  EXPECT_EQ(out + "'", "'it\\'s'");
  EXPECT_EQ(escaped("it's"), "it's");
}

TEST(TextEscape, AppendsAfterExistingText) {
  std::string out = "comm=";
  append_escaped(out, "a\nb");
  EXPECT_EQ(out, "comm=a\\nb");
}

}  // namespace
}  // namespace retsnoop
