#include "cli/value_parsers.h"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace retsnoop {
namespace {

// A value of a choice setting and how it may be typed. The first spelling is the name we print;
// upstream's "linenum" and the one-letter forms are accepted too, so configurations written for
// either tool work.
template <typename E>
struct Spelled {
  E level;
  std::string_view spellings[3];
};
constexpr Spelled<SymbLevel> kLevelNames[] = {
    {SymbLevel::None, {"none", "n"}},
    {SymbLevel::Lines, {"lines", "linenum", "l"}},
    {SymbLevel::Inlines, {"inlines", "i"}},
};
constexpr Spelled<ArgFmtMode> kFmtModeNames[] = {
    {ArgFmtMode::Compact, {"compact", "c"}},
    {ArgFmtMode::Multiline, {"multiline", "m"}},
    {ArgFmtMode::Verbose, {"verbose", "v"}},
};

struct BoolName {
  std::string_view name;
  bool value;
};
constexpr BoolName kBoolNames[] = {
    {"y", true},      {"n", false}, {"yes", true},  {"no", false}, {"true", true},
    {"false", false}, {"on", true}, {"off", false}, {"1", true},   {"0", false},
};

// Settings are typed by hand, often copied from other tools' documentation: case never matters.
bool same_word(std::string_view a, std::string_view b) {
  auto lower = [](char c) { return std::tolower(static_cast<unsigned char>(c)); };
  return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                    [&](char x, char y) { return lower(x) == lower(y); });
}

template <typename E>
bool spells(const Spelled<E>& l, std::string_view text) {
  return std::any_of(std::begin(l.spellings), std::end(l.spellings),
                     [&](std::string_view s) { return !s.empty() && same_word(s, text); });
}

// "lines (linenum, l)": a level with its other spellings.
template <typename E>
std::string level_choice(const Spelled<E>& l) {
  std::string text(l.spellings[0]);
  std::string others;
  for (size_t i = 1; i < std::size(l.spellings) && !l.spellings[i].empty(); ++i)
    others.append(others.empty() ? "" : ", ").append(l.spellings[i]);
  return others.empty() ? text : text + " (" + others + ")";
}

template <typename E, size_t N>
E parse_spelled(const Spelled<E> (&names)[N], std::string_view text) {
  for (const auto& l : names) {
    if (spells(l, text)) return l.level;
  }
  throw InvalidValue("expected one of " + join_names(names, level_choice<E>));
}

template <typename E, size_t N>
const char* spelled_name(const Spelled<E> (&names)[N], E level) {
  for (const auto& l : names) {
    if (level == l.level) return l.spellings[0].data();
  }
  return nullptr;
}

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

std::optional<uint64_t> parse_unsigned_literal(std::string_view text, bool leading_zero_octal) {
  int base = 10;
  if (text.starts_with("0x") || text.starts_with("0X")) {
    base = 16;
    text.remove_prefix(2);
  } else if (leading_zero_octal && text.size() > 1 && text.starts_with('0')) {
    base = 8;
    text.remove_prefix(1);
  }
  uint64_t value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value, base);
  if (text.empty() || ec != std::errc() || ptr != end) return std::nullopt;
  return value;
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
  for (const auto& b : kBoolNames) {
    if (same_word(text, b.name)) return b.value;
  }
  throw InvalidValue(std::string("expected ") + kBoolChoices);
}

SymbLevel parse_symbolize_level(std::string_view text) { return parse_spelled(kLevelNames, text); }

std::string symbolize_level_choices() { return join_names(kLevelNames, level_choice<SymbLevel>); }

const char* symbolize_level_name(SymbLevel level) { return spelled_name(kLevelNames, level); }

ArgFmtMode parse_arg_fmt_mode(std::string_view text) { return parse_spelled(kFmtModeNames, text); }

std::string arg_fmt_mode_choices() { return join_names(kFmtModeNames, level_choice<ArgFmtMode>); }

const char* arg_fmt_mode_name(ArgFmtMode mode) { return spelled_name(kFmtModeNames, mode); }

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

bool parse_repeats(std::string_view value) {
  if (same_word(value, "count")) return true;
  if (same_word(value, "print")) return false;
  throw InvalidValue("expected print or count");
}

std::optional<RetKind> parse_user_retval(std::string_view value) {
  if (same_word(value, "dwarf")) return std::nullopt;
  if (same_word(value, "int")) return RetKind::Int32;
  if (same_word(value, "errno")) return RetKind::Int64;
  if (same_word(value, "ptr")) return RetKind::Ptr;
  throw InvalidValue("expected dwarf, int, ptr or errno");
}

std::string_view user_retval_name(std::optional<RetKind> kind) {
  if (!kind) return "dwarf";
  return kind == RetKind::Int32 ? "int" : kind == RetKind::Ptr ? "ptr" : "errno";
}

}  // namespace retsnoop
