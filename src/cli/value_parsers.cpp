#include "cli/value_parsers.h"

#include <charconv>

namespace retsnoop {
namespace {

struct LevelName {
  SymbolizeLevel level;
  const char* name;
};
constexpr LevelName kLevelNames[] = {
    {SymbolizeLevel::None, "none"},
    {SymbolizeLevel::Lines, "lines"},
    {SymbolizeLevel::Inlines, "inlines"},
};

// std::from_chars on the whole text: no sign, no spaces, nothing trailing.
bool parse_decimal(std::string_view text, uint64_t& value) {
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  return ec == std::errc() && ptr == end && !text.empty();
}

}  // namespace

UserError invalid_value(std::string_view label, std::string_view value, const InvalidValue& why,
                        std::string hint) {
  std::string msg = "Invalid value '";
  msg.append(value).append("' for ").append(label).append(": ").append(why.what());
  return UserError(msg, std::move(hint));
}

uint64_t parse_positive(std::string_view text, uint64_t max) {
  uint64_t value = 0;
  if (!parse_decimal(text, value) || value == 0 || value > max) {
    if (max == UINT64_MAX) throw InvalidValue("expected a positive integer");
    throw InvalidValue("expected an integer from 1 to " + std::to_string(max));
  }
  return value;
}

bool parse_bool(std::string_view text) {
  if (text == "y" || text == "yes" || text == "true" || text == "1") return true;
  if (text == "n" || text == "no" || text == "false" || text == "0") return false;
  throw InvalidValue("expected y/n, yes/no, true/false or 1/0");
}

SymbolizeLevel parse_symbolize_level(std::string_view text) {
  for (const auto& l : kLevelNames) {
    if (text == l.name) return l.level;
  }
  auto names = join_names(kLevelNames, [](const LevelName& l) { return l.name; });
  throw InvalidValue("expected one of " + names);
}

const char* symbolize_level_name(SymbolizeLevel level) {
  for (const auto& l : kLevelNames) {
    if (level == l.level) return l.name;
  }
  return nullptr;
}

uint64_t parse_byte_size(std::string_view text) {
  unsigned shift = 0;
  if (text.ends_with('K') || text.ends_with('k')) shift = 10;
  if (text.ends_with('M') || text.ends_with('m')) shift = 20;
  if (text.ends_with('G') || text.ends_with('g')) shift = 30;
  if (shift) text.remove_suffix(1);
  uint64_t value = 0;
  if (!parse_decimal(text, value) || value == 0 || value > (UINT64_MAX >> shift)) {
    throw InvalidValue("expected a positive number of bytes, optionally with a K, M or G suffix");
  }
  return value << shift;
}

}  // namespace retsnoop
