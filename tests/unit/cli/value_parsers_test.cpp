#include "cli/value_parsers.h"

#include <gtest/gtest.h>

#include <vector>

namespace retsnoop {
namespace {

template <class F>
std::string failure(F parse) {
  try {
    parse();
  } catch (const InvalidValue& e) {
    return e.what();
  }
  return "accepted";
}

TEST(ValueParsers, UnsignedLiterals) {
  EXPECT_EQ(parse_unsigned_literal("32", false), 32u);
  EXPECT_EQ(parse_unsigned_literal("0x20", false), 32u);
  EXPECT_EQ(parse_unsigned_literal("0XfF", false), 255u);
  EXPECT_EQ(parse_unsigned_literal("040", false), 40u);  // decimal unless octal is asked for
  EXPECT_EQ(parse_unsigned_literal("040", true), 32u);
  EXPECT_EQ(parse_unsigned_literal("0", true), 0u);
  EXPECT_EQ(parse_unsigned_literal("18446744073709551615", false), UINT64_MAX);
  for (const char* bad : {"", "-1", "+1", " 1", "1 ", "0x", "08", "0x1g", "18446744073709551616"})
    EXPECT_EQ(parse_unsigned_literal(bad, true), std::nullopt) << bad;
}

TEST(ValueParsers, PositiveIntegers) {
  EXPECT_EQ(parse_positive("1"), 1u);
  EXPECT_EQ(parse_positive("18446744073709551615"), UINT64_MAX);
  EXPECT_EQ(parse_positive("100", 100), 100u);
  for (const char* bad : {"", "0", "-1", "+1", " 1", "1 ", "0x10", "1e3", "18446744073709551616"}) {
    EXPECT_EQ(failure([&] { parse_positive(bad); }), "expected a positive integer") << bad;
  }
  EXPECT_EQ(failure([] { parse_positive("101", 100); }), "expected an integer from 1 to 100");
}

TEST(ValueParsers, Booleans) {
  for (const char* yes : {"y", "yes", "true", "on", "1"}) EXPECT_TRUE(parse_bool(yes)) << yes;
  for (const char* no : {"n", "no", "false", "off", "0"}) EXPECT_FALSE(parse_bool(no)) << no;
  for (const char* bad : {"", "2", "yess", "o", "enable"}) {
    EXPECT_EQ(failure([&] { parse_bool(bad); }),
              "expected y/n, yes/no, true/false, on/off or 1/0 (any case)")
        << bad;
  }
}

TEST(ValueParsers, BooleansIgnoreCase) {
  for (const char* yes : {"Y", "YES", "Yes", "TRUE", "True", "ON", "On"}) {
    EXPECT_TRUE(parse_bool(yes)) << yes;
  }
  for (const char* no : {"N", "NO", "No", "FALSE", "False", "OFF", "Off"}) {
    EXPECT_FALSE(parse_bool(no)) << no;
  }
}

TEST(ValueParsers, SymbolizeLevelNamesRoundTrip) {
  for (auto level : {SymbLevel::None, SymbLevel::Lines, SymbLevel::Inlines}) {
    EXPECT_EQ(parse_symbolize_level(symbolize_level_name(level)), level);
  }
  EXPECT_EQ(failure([] { parse_symbolize_level("default"); }),
            "expected one of none (n), lines (linenum, l), inlines (i)");
}

TEST(ValueParsers, SymbolizeLevelUpstreamSpellingsAndLetters) {
  EXPECT_EQ(parse_symbolize_level("linenum"), SymbLevel::Lines);
  EXPECT_EQ(parse_symbolize_level("n"), SymbLevel::None);
  EXPECT_EQ(parse_symbolize_level("l"), SymbLevel::Lines);
  EXPECT_EQ(parse_symbolize_level("i"), SymbLevel::Inlines);
  EXPECT_EQ(symbolize_level_name(parse_symbolize_level("linenum")), std::string("lines"));
}

TEST(ValueParsers, SymbolizeLevelIgnoresCase) {
  EXPECT_EQ(parse_symbolize_level("NONE"), SymbLevel::None);
  EXPECT_EQ(parse_symbolize_level("LineNum"), SymbLevel::Lines);
  EXPECT_EQ(parse_symbolize_level("Lines"), SymbLevel::Lines);
  EXPECT_EQ(parse_symbolize_level("I"), SymbLevel::Inlines);
  for (const char* bad : {"", "x", "line", "inline", "linenums"}) {
    EXPECT_NE(failure([&] { parse_symbolize_level(bad); }), "accepted") << bad;
  }
}

TEST(ValueParsers, ByteSizes) {
  EXPECT_EQ(parse_byte_size("4096"), 4096u);
  EXPECT_EQ(parse_byte_size("4K"), 4096u);
  EXPECT_EQ(parse_byte_size("4k"), 4096u);
  EXPECT_EQ(parse_byte_size("8M"), 8u << 20);
  EXPECT_EQ(parse_byte_size("8m"), 8u << 20);
  EXPECT_EQ(parse_byte_size("4G"), 4ull << 30);
  EXPECT_EQ(parse_byte_size("2g"), 2ull << 30);
  // The largest values whose shifted bytes fit 64 bits, then the smallest that don't.
  EXPECT_EQ(parse_byte_size("17179869183G"), 17179869183ull << 30);
  for (const char* bad : {"", "K", "G", "0", "0K", "-4K", "4KB", "4T", "17592186044416M",
                          "17179869184G", "18446744073709551616"}) {
    EXPECT_EQ(failure([&] { parse_byte_size(bad); }),
              "expected a positive number of bytes, optionally with a K, M or G suffix")
        << bad;
  }
}

TEST(ValueParsers, InvalidValueMessage) {
  UserError e = invalid_value("-p/--pid", "x", InvalidValue("expected a PID"), "hint");
  EXPECT_STREQ(e.what(), "Invalid value 'x' for -p/--pid: expected a PID");
  EXPECT_EQ(e.hint(), "hint");
}

TEST(ValueParsers, JoinNames) {
  struct Row {
    const char* name;
  };
  std::vector<Row> rows = {{"a"}, {"bb"}, {"c"}};
  EXPECT_EQ(join_names(rows, [](const Row& r) { return r.name; }), "a, bb, c");
  EXPECT_EQ(join_names(std::vector<Row>{}, [](const Row& r) { return r.name; }), "");
}

// "dwarf" leaves the rule to each binary's DWARF; the others override it, and read back.
TEST(ValueParsers, UserRetval) {
  EXPECT_EQ(parse_user_retval("dwarf"), std::nullopt);
  EXPECT_EQ(parse_user_retval("int"), RetKind::Int32);
  EXPECT_EQ(parse_user_retval("errno"), RetKind::Int64);
  EXPECT_EQ(parse_user_retval("ptr"), RetKind::Ptr);
  for (const char* word : {"dwarf", "int", "errno", "ptr"})
    EXPECT_EQ(user_retval_name(parse_user_retval(word)), word);
  EXPECT_EQ(failure([] { parse_user_retval("long"); }), "expected dwarf, int, ptr or errno");
}

}  // namespace
}  // namespace retsnoop
