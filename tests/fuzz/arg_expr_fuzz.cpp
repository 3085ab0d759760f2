// --arg-filter: the expression is the user's, and its parser recurses on nesting.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "filter/arg_expr.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    retsnoop::parse_arg_expr(text);
  } catch (const retsnoop::ArgExprError& e) {
    // A refusal is the parser's answer to bad input; its message must still build.
    retsnoop::arg_expr_message(text, e);
  }
  return 0;
}
