// Parsers for option and setting values. They throw InvalidValue naming only what was expected;
// the caller knows which option or setting was being parsed and builds the user-facing message.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "discovery/ret_kind.h"

#include "cli/options.h"
#include "util/error.h"

namespace retsnoop {

class InvalidValue : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// "Invalid value 'VALUE' for LABEL: EXPECTATION".
UserError invalid_value(std::string_view label, std::string_view value, const InvalidValue& why,
                        std::string hint = {});

// "a, b, c" from the names a table's rows carry: error messages list the valid choices.
template <class Table, class NameOf>
std::string join_names(const Table& table, NameOf name_of) {
  std::string list;
  for (const auto& row : table) list.append(list.empty() ? "" : ", ").append(name_of(row));
  return list;
}

// An unsigned integer: "0x" or "0X" and hex digits; with leading_zero_octal, "0" and octal
// digits (as C's strtoul() with base 0 reads them); else decimal. nullopt for anything else,
// signs and spaces included, or a value past 64 bits.
std::optional<uint64_t> parse_unsigned_literal(std::string_view text, bool leading_zero_octal);
// Decimal integer in [1, max].
uint64_t parse_positive(std::string_view text, uint64_t max = UINT64_MAX);
// The spellings parse_bool accepts, for error messages and --config-help.
inline constexpr const char* kBoolChoices = "y/n, yes/no, true/false, on/off or 1/0 (any case)";
// One of kBoolChoices.
bool parse_bool(std::string_view text);
// none (n), lines (linenum, l) or inlines (i), any case.
SymbLevel parse_symbolize_level(std::string_view text);
// "none (n), lines (linenum, l), inlines (i)": the spellings parse_symbolize_level accepts.
std::string symbolize_level_choices();
// The inverse: the level's first spelling.
const char* symbolize_level_name(SymbLevel level);
// compact (c), multiline (m) or verbose (v), any case; the choices and names as above.
ArgFmtMode parse_arg_fmt_mode(std::string_view text);
std::string arg_fmt_mode_choices();
const char* arg_fmt_mode_name(ArgFmtMode mode);
// Bytes with an optional K, M or G suffix (binary units).
uint64_t parse_byte_size(std::string_view text);

// stacks.repeats: true for "count" (repeats counted in BPF), false for "print".
bool parse_repeats(std::string_view value);

// user.retval: "dwarf" (nullopt: the binary's DWARF return types decide), "int" (the low 32 bits
// carry an errno), "errno" (all 64 bits do), "ptr" (NULL or an errno fails); and back.
std::optional<RetKind> parse_user_retval(std::string_view value);
std::string_view user_retval_name(std::optional<RetKind> kind);

}  // namespace retsnoop
