#include "filter/arg_expr.h"

#include <cctype>
#include <cerrno>
#include <cstdlib>

#include "util/text_escape.h"

namespace retsnoop {
namespace {

enum class Tok { End, Name, Int, Str, Punct };

struct Token {
  Tok kind = Tok::End;
  std::string text;  // a name, a punctuator, or a string literal's bytes
  uint64_t value = 0;
  bool prefix = false;
  size_t pos = 0;
};

// Two-character punctuators first, so that "->" is not read as "-".
constexpr std::string_view kPuncts[] = {"->", "&&", "||", "==", "!=", "<=", ">=", "(", ")",
                                        "[",  "]",  ".",  "!",  "-",  "*",  "&",  "<", ">"};

class Lexer {
 public:
  explicit Lexer(std::string_view s) : s_(s) {}

  Token next() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
    Token t;
    t.pos = i_;
    if (i_ >= s_.size()) return t;
    char c = s_[i_];
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') return name(t);
    if (std::isdigit(static_cast<unsigned char>(c))) return number(t);
    if (c == '"') return string(t);
    for (std::string_view p : kPuncts) {
      if (s_.substr(i_, p.size()) == p) {
        t.kind = Tok::Punct;
        t.text = p;
        i_ += p.size();
        return t;
      }
    }
    throw ArgExprError(i_, "unexpected character '" + retsnoop::escaped(std::string(1, c)) + "'");
  }

 private:
  Token name(Token t) {
    size_t start = i_;
    while (i_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[i_])) || s_[i_] == '_'))
      ++i_;
    t.kind = Tok::Name;
    t.text = s_.substr(start, i_ - start);
    return t;
  }

  Token number(Token t) {
    size_t start = i_;
    while (i_ < s_.size() && std::isalnum(static_cast<unsigned char>(s_[i_]))) ++i_;
    std::string digits(s_.substr(start, i_ - start));
    errno = 0;
    char* end = nullptr;
    t.value = std::strtoull(digits.c_str(), &end, 0);  // 0x.., 0.. and decimal, as in C
    if (errno || *end) throw ArgExprError(start, "bad integer '" + digits + "'");
    t.kind = Tok::Int;
    return t;
  }

  Token string(Token t) {
    ++i_;
    t.kind = Tok::Str;
    while (i_ < s_.size() && s_[i_] != '"') {
      char c = s_[i_++];
      if (c == '*' && i_ < s_.size() && s_[i_] == '"') {
        t.prefix = true;  // "abc*": a prefix
        continue;
      }
      if (c != '\\') {
        t.text += c;
        continue;
      }
      if (i_ >= s_.size()) break;
      t.text += unescape(s_[i_++]);
    }
    if (i_ >= s_.size()) throw ArgExprError(t.pos, "unterminated string");
    ++i_;
    return t;
  }

  char unescape(char c) {
    switch (c) {
      case 'n': return '\n';
      case 't': return '\t';
      case '0': return '\0';
      case '\\':
      case '"':
      case '*': return c;
    }
    throw ArgExprError(i_ - 2, "unknown escape '\\" + retsnoop::escaped(std::string(1, c)) + "'");
  }

  std::string_view s_;
  size_t i_ = 0;
};

// How deep an expression may nest: parentheses, unary operators and each operator chained at one
// level or postfix count a level. The parser, the type checker and the tree's destructor all
// recurse once per level, so an unbounded depth is a stack overflow. Operators that deep need far
// more than the BPF program's 64 instructions, and nobody writes 128 parentheses.
constexpr size_t kMaxDepth = 128;

// Recursive descent, one function per C precedence level.
class Parser {
 public:
  explicit Parser(std::string_view s) : lex_(s) { advance(); }

  std::unique_ptr<ArgExpr> parse() {
    auto e = logical_or();
    if (cur_.kind != Tok::End) throw ArgExprError(cur_.pos, "unexpected '" + shown(cur_) + "'");
    return e;
  }

 private:
  using Ptr = std::unique_ptr<ArgExpr>;

  void advance() { cur_ = lex_.next(); }

  // One level deeper, at pos; whoever goes deeper restores depth_ once that level is built.
  void deeper(size_t pos) {
    if (++depth_ > kMaxDepth)
      throw ArgExprError(pos, "nested more than " + std::to_string(kMaxDepth) + " levels deep");
  }

  bool at(std::string_view punct) const { return cur_.kind == Tok::Punct && cur_.text == punct; }

  static std::string shown(const Token& t) {
    if (t.kind == Tok::Str) return "\"" + escaped(t.text) + "\"";
    if (t.kind == Tok::Int) return std::to_string(t.value);
    return escaped(t.text);
  }

  void expect(std::string_view punct) {
    if (!at(punct))
      throw ArgExprError(
          cur_.pos, "expected '" + std::string(punct) + "'" +
                        (cur_.kind == Tok::End ? " at the end" : " before '" + shown(cur_) + "'"));
    advance();
  }

  static Ptr node(ArgExprKind kind, size_t pos) {
    auto e = std::make_unique<ArgExpr>();
    e->kind = kind;
    e->pos = pos;
    e->start = pos;
    return e;
  }

  static Ptr binary(ArgExprOp op, Ptr lhs, Ptr rhs, size_t pos) {
    Ptr e = node(ArgExprKind::Binary, pos);
    e->start = lhs->start;
    e->op = op;
    e->lhs = std::move(lhs);
    e->rhs = std::move(rhs);
    return e;
  }

  // One left-associative level: operators ops, operands from next.
  template <typename Next>
  Ptr level(std::initializer_list<std::pair<std::string_view, ArgExprOp>> ops, Next next) {
    Ptr lhs = (this->*next)();
    size_t entered = depth_;
    for (;;) {
      const std::pair<std::string_view, ArgExprOp>* hit = nullptr;
      for (const auto& o : ops)
        if (at(o.first)) hit = &o;
      if (!hit) {
        depth_ = entered;
        return lhs;
      }
      size_t pos = cur_.pos;
      deeper(pos);  // the chain so far becomes the left operand, one level down
      advance();
      lhs = binary(hit->second, std::move(lhs), (this->*next)(), pos);
    }
  }

  Ptr logical_or() { return level({{"||", ArgExprOp::Or}}, &Parser::logical_and); }
  Ptr logical_and() { return level({{"&&", ArgExprOp::And}}, &Parser::bit_and); }
  Ptr bit_and() { return level({{"&", ArgExprOp::BitAnd}}, &Parser::equality); }
  Ptr equality() {
    return level({{"==", ArgExprOp::Eq}, {"!=", ArgExprOp::Ne}}, &Parser::relational);
  }
  Ptr relational() {
    return level(
        {{"<", ArgExprOp::Lt}, {"<=", ArgExprOp::Le}, {">", ArgExprOp::Gt}, {">=", ArgExprOp::Ge}},
        &Parser::unary);
  }

  Ptr unary() {
    static constexpr std::pair<std::string_view, ArgExprKind> kUnary[] = {
        {"!", ArgExprKind::Not}, {"-", ArgExprKind::Neg}, {"*", ArgExprKind::Deref}};
    for (const auto& [punct, kind] : kUnary) {
      if (!at(punct)) continue;
      Ptr e = node(kind, cur_.pos);
      deeper(cur_.pos);
      advance();
      e->lhs = unary();
      --depth_;
      return e;
    }
    return postfix();
  }

  Ptr postfix() {
    Ptr e = primary();
    size_t entered = depth_;
    for (;;) {
      size_t pos = cur_.pos;  // of '[', for an index
      if (at("->") || at(".")) {
        ArgExprKind kind = at("->") ? ArgExprKind::Arrow : ArgExprKind::Member;
        deeper(pos);
        advance();
        if (cur_.kind != Tok::Name) throw ArgExprError(cur_.pos, "expected a member name");
        Ptr m = node(kind, cur_.pos);
        m->start = e->start;
        m->text = cur_.text;
        m->lhs = std::move(e);
        e = std::move(m);
        advance();
      } else if (at("[")) {
        deeper(pos);
        advance();
        if (cur_.kind != Tok::Int) throw ArgExprError(cur_.pos, "an index must be an integer");
        Ptr ix = node(ArgExprKind::Index, pos);
        ix->start = e->start;
        ix->value = cur_.value;
        ix->lhs = std::move(e);
        e = std::move(ix);
        advance();
        expect("]");
      } else {
        depth_ = entered;
        return e;
      }
    }
  }

  Ptr primary() {
    Token t = cur_;
    if (at("(")) {
      deeper(t.pos);
      advance();
      Ptr e = logical_or();
      expect(")");
      --depth_;
      return e;
    }
    Ptr e;
    switch (t.kind) {
      case Tok::Name:
        e = node(t.text == "NULL" ? ArgExprKind::Null : ArgExprKind::Name, t.pos);
        e->text = t.text;
        break;
      case Tok::Int:
        e = node(ArgExprKind::Int, t.pos);
        e->value = t.value;
        break;
      case Tok::Str:
        e = node(ArgExprKind::Str, t.pos);
        e->text = t.text;
        e->prefix = t.prefix;
        break;
      case Tok::End: throw ArgExprError(t.pos, "expected an operand at the end");
      case Tok::Punct: throw ArgExprError(t.pos, "expected an operand before '" + t.text + "'");
    }
    advance();
    return e;
  }

  Lexer lex_;
  Token cur_;
  size_t depth_ = 0;
};

}  // namespace

std::unique_ptr<ArgExpr> parse_arg_expr(std::string_view text) { return Parser(text).parse(); }

std::string arg_expr_message(std::string_view text, const ArgExprError& err) {
  // The column says where: of an expression long enough to flood the terminal, the start will do.
  constexpr size_t kShownMax = 160;
  std::string shown = escaped(std::string(text.substr(0, kShownMax)));
  if (text.size() > kShownMax) shown += "...";
  return "--arg-filter '" + shown + "': at column " + std::to_string(err.pos() + 1) + ": " +
         err.what();
}

}  // namespace retsnoop
