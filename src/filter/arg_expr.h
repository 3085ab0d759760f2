// --arg-filter: the expression language, parsed into a tree before any BTF is read. C's syntax
// and precedence for what it has: names, integer and string literals, NULL, ->, ., [N], unary
// !, - and *, the comparisons, &, && and ||, parentheses.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

namespace retsnoop {

enum class ArgExprKind {
  Name,    // a parameter or an enum constant: text
  Int,     // value
  Str,     // text, the literal's bytes; a trailing unescaped '*' makes it a prefix (prefix)
  Null,    // NULL
  Arrow,   // lhs->text
  Member,  // lhs.text
  Index,   // lhs[value]
  Deref,   // *lhs
  Not,     // !lhs
  Neg,     // -lhs
  Binary,  // lhs op rhs
};

enum class ArgExprOp { Or, And, BitAnd, Eq, Ne, Lt, Le, Gt, Ge };

struct ArgExpr {
  ArgExprKind kind = ArgExprKind::Int;
  ArgExprOp op = ArgExprOp::Eq;
  std::string text;
  uint64_t value = 0;
  bool prefix = false;
  size_t pos = 0;    // where it is in the expression, from 0: a member's name, an operator
  size_t start = 0;  // where the operand it makes starts
  std::unique_ptr<ArgExpr> lhs, rhs;
};

// A parse or type error at pos (from 0) of the expression.
class ArgExprError : public std::runtime_error {
 public:
  ArgExprError(size_t pos, const std::string& what) : std::runtime_error(what), pos_(pos) {}
  size_t pos() const { return pos_; }

 private:
  size_t pos_;
};

// Throws ArgExprError.
std::unique_ptr<ArgExpr> parse_arg_expr(std::string_view text);

// The one-line error retsnoop prints for err in expression text: the column counts from 1.
std::string arg_expr_message(std::string_view text, const ArgExprError& err);

}  // namespace retsnoop
