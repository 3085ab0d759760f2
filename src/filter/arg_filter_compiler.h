// --arg-filter: the expressions, type-checked against one entry function's BTF prototype and
// compiled into the program BPF runs at the function's entry (struct rs_arg_filter, interpreted
// by bpf/arg_filter.h). Every expression must hold: they are joined with &&.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "bpf/abi.h"
#include "discovery/func_args.h"
#include "filter/arg_expr.h"

namespace retsnoop {

struct ArgFilterProgram {
  rs_arg_filter prog{};  // cnt 0: the function opens no session, for one of these reasons:
  std::string missing;   // a name its prototype lacks
  std::string error;     // an expression does not type-check against it: the one-line message
};

class ArgFilterCompiler {
 public:
  // Parses every expression: throws UserError naming the expression and the column.
  explicit ArgFilterCompiler(const std::vector<std::string>& exprs);
  ~ArgFilterCompiler();

  // The program for a function whose arguments args describes; an empty one, with the reason,
  // for a prototype that lacks a name or does not type-check (the message names the column).
  ArgFilterProgram compile(const FuncArgs& args);

 private:
  struct Parsed {
    std::string text;
    std::unique_ptr<ArgExpr> tree;
  };
  using EnumIndex = std::unordered_map<std::string, int64_t>;

  const EnumIndex& enums_of(const struct btf* btf);

  std::vector<Parsed> exprs_;
  std::map<const struct btf*, EnumIndex> enums_;  // by the BTF the functions' types are in
};

}  // namespace retsnoop
