#include "cli/retval_range_parser.h"

#include <cstdint>
#include <optional>
#include <string>

#include "cli/value_parsers.h"
#include "util/errno_names.h"

namespace retsnoop {
namespace {

constexpr const char* kExpected =
    "expected an errno name (EINVAL or -EINVAL), NULL, an integer or a range LO..HI";

// Magnitudes above INT64_MAX are kept as the same 64 bits: addresses and large unsigned results
// are compared the way the register holds them.
std::optional<int64_t> parse_integer(std::string_view text) {
  bool negative = text.starts_with('-');
  if (negative) text.remove_prefix(1);
  auto magnitude = parse_unsigned_literal(text, false);
  if (!magnitude) return std::nullopt;
  if (!negative) return static_cast<int64_t>(*magnitude);
  if (*magnitude > uint64_t(INT64_MAX) + 1) return std::nullopt;
  return static_cast<int64_t>(0 - *magnitude);
}

int64_t parse_retval(std::string_view text) {
  if (auto err = errno_from_name(text)) return -int64_t(*err);
  if (auto value = parse_integer(text)) return *value;
  throw InvalidValue(kExpected);
}

}  // namespace

RetvalRange parse_retval_range(std::string_view text) {
  auto dots = text.find("..");
  if (dots == std::string_view::npos) {
    int64_t value = parse_retval(text);
    return {value, value};
  }
  RetvalRange range{parse_retval(text.substr(0, dots)), parse_retval(text.substr(dots + 2))};
  if (range.lo > range.hi) throw InvalidValue("expected LO..HI with LO not above HI");
  return range;
}

}  // namespace retsnoop
