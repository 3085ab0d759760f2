#include "filter/arg_expr.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <utility>

namespace retsnoop {
namespace {

// n times open, then operand, then n times close.
std::string nest(size_t n, const std::string& open, const std::string& operand,
                 const std::string& close = "") {
  std::string s;
  for (size_t i = 0; i < n; ++i) s += open;
  s += operand;
  for (size_t i = 0; i < n; ++i) s += close;
  return s;
}

// The refusal of text: where and what.
std::pair<size_t, std::string> refusal(const std::string& text) {
  try {
    parse_arg_expr(text);
  } catch (const ArgExprError& e) {
    return {e.pos(), e.what()};
  }
  ADD_FAILURE() << "parsed";
  return {};
}

// How deep the parsed tree of text goes.
size_t height(const ArgExpr& e) {
  size_t below = 0;
  for (const ArgExpr* child : {e.lhs.get(), e.rhs.get()})
    if (child) below = std::max(below, height(*child));
  return below + 1;
}

TEST(ArgExpr, NestsUpTo128Levels) {
  EXPECT_EQ(parse_arg_expr(nest(128, "(", "fd", ")"))->kind, ArgExprKind::Name);
  EXPECT_EQ(height(*parse_arg_expr(nest(128, "!", "fd"))), 129u);
  EXPECT_EQ(height(*parse_arg_expr("fd" + nest(128, "->m", ""))), 129u);
  EXPECT_EQ(height(*parse_arg_expr("fd" + nest(128, " || fd", ""))), 129u);
}

TEST(ArgExpr, RefusesTheLevelPastTheLimitWhereItStarts) {
  const std::pair<size_t, std::string> deep{128, "nested more than 128 levels deep"};
  // As deep as a command line allows: the parser must not recurse that far.
  EXPECT_EQ(refusal(nest(60000, "(", "fd", ")")), deep);
  EXPECT_EQ(refusal(nest(60000, "-", "fd")), deep);
  EXPECT_EQ(refusal(nest(129, "*(", "p", ")")).first, 128u);
  // Chains build as deep a tree as nesting does, and every later stage walks it.
  EXPECT_EQ(refusal("fd" + nest(60000, " || fd", "")).first, 3 + 128 * 6);
  EXPECT_EQ(refusal("fd" + nest(60000, ".m", "")).first, 2 + 128 * 2);
  EXPECT_EQ(refusal("a" + nest(129, "[0]", "")).first, 1 + 128 * 3);
}

TEST(ArgExpr, ALevelEndsWithItsOperand) {
  // Each operand nests 100 deep on its own: the levels of one do not add to the next's.
  std::string operand = nest(100, "(", "fd", ")");
  std::string chain = operand;
  for (int i = 0; i < 20; ++i) chain += (i % 2 ? " == " : " && ") + operand;
  EXPECT_EQ(parse_arg_expr(chain)->kind, ArgExprKind::Binary);
  EXPECT_EQ(parse_arg_expr(nest(100, "!", "fd") + " && " + nest(100, "-", "fd"))->kind,
            ArgExprKind::Binary);
  EXPECT_EQ(
      parse_arg_expr(nest(100, "(", "a->b.c[1]", ")") + " && " + nest(100, "(", "fd", ")"))->kind,
      ArgExprKind::Binary);
}

TEST(ArgExpr, TheDepthRefusalIsOneShortLine) {
  std::string text = nest(60000, "(", "fd", ")");
  try {
    parse_arg_expr(text);
    FAIL() << "parsed";
  } catch (const ArgExprError& e) {
    // The expression's first 160 bytes, then the column.
    EXPECT_EQ(arg_expr_message(text, e),
              "--arg-filter '" + std::string(160, '(') +
                  "...': at column 129: nested more than 128 levels deep");
  }
}

TEST(ArgExpr, AShortExpressionIsShownWhole) {
  std::string text = std::string(159, ' ') + "(";
  try {
    parse_arg_expr(text);
    FAIL() << "parsed";
  } catch (const ArgExprError& e) {
    EXPECT_EQ(arg_expr_message(text, e),
              "--arg-filter '" + text + "': at column 161: expected an operand at the end");
  }
}

}  // namespace
}  // namespace retsnoop
