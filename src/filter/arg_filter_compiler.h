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
#include "discovery/arg_plan.h"
#include "filter/arg_expr.h"

namespace retsnoop {

struct ArgFilterProgram {
  rs_arg_filter prog{};  // cnt 0: the function opens no session
  std::string missing;   // why it opens none: a name its prototype lacks
};

class ArgFilterCompiler {
 public:
  // Parses every expression: throws UserError naming the expression and the column.
  explicit ArgFilterCompiler(const std::vector<std::string>& exprs);
  ~ArgFilterCompiler();

  // The program for a function whose arguments args describes. A prototype without a name the
  // expressions use gets an empty program and the name in missing; an expression that does not
  // type-check against it throws UserError, with the column.
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
