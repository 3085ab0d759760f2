// -A: one captured argument decoded into a small tree of typed values, by its BTF type. The
// text and JSON printers walk the tree; only this step knows BTF layouts and byte buffers.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "format/arg_render.h"

namespace retsnoop {

struct ArgValue {
  enum class Kind : uint8_t {
    Signed,      // s
    Unsigned,    // u
    Bool,        // u
    Char,        // u: a C char
    Enumerator,  // u (raw bits), text: the enumerator's name
    Wide,        // text: a 128-bit integer in hex
    Raw,         // u: a register slot without a type
    Address,     // u: a pointer that is not followed (raw slot, void *, pointer field); 0: NULL
    Symbol,      // u: a function pointer; text: its symbol name, empty when unknown
    String,      // text: the bytes before the NUL
    Record,      // fields: struct or union members that are not all zero
    Array,       // fields (names empty): elements, trailing zero ones dropped
    Pointer,     // u: address (0: NULL); fields: the pointee when captured; text: why not
  };
  // Copies and destruction are defined out of line: clang 14 instantiates a recursive member
  // like fields, a vector of pairs of ArgValue, before ArgValue is complete when they are inline.
  ArgValue() = default;
  ArgValue(const ArgValue&);
  ArgValue(ArgValue&&) noexcept = default;
  ArgValue& operator=(const ArgValue&);
  ArgValue& operator=(ArgValue&&) noexcept = default;
  ~ArgValue();

  Kind kind = Kind::Unsigned;
  int64_t s = 0;
  uint64_t u = 0;
  std::string text;
  bool truncated = false;  // the captured bytes ended before the value did
  std::vector<std::pair<std::string, ArgValue>> fields;

  bool is_zero() const;
};

// Why a pointer's data is missing: ArgValue::text of a Pointer.
inline constexpr const char* kUnreadable = "unreadable";
inline constexpr const char* kOverBudget = "over budget";

// "0x" and v in lowercase hex, as every -A value in hex prints.
std::string arg_hex(uint64_t v);

// Decodes argument i of plan from cap.
ArgValue decode_arg(const FuncArgs& plan, size_t i, const CapturedArgs& cap,
                    const AddrNamer& name_addr);

// What plan shows of cap, named and in order: its arguments, or a tracepoint's fields.
std::vector<std::pair<std::string, ArgValue>> decode_shown(const FuncArgs& plan,
                                                           const CapturedArgs& cap,
                                                           const AddrNamer& name_addr);

// The data at addr that BPF could not read (len: RS_ARG_ERR_*).
ArgValue missing_value(uint64_t addr, int32_t len);
// The string held in data up to its NUL, read at addr; truncated when data has no NUL.
ArgValue string_value(uint64_t addr, std::span<const uint8_t> data);

}  // namespace retsnoop
