// The result kinds of traced functions, as user space names and judges them. The values are the BPF
// program's enum rs_ret_kind: the kind travels to BPF as a number, and bpf/result_kind.h holds
// the one rule for when a result of each kind is a failure.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "bpf/result_kind.h"

namespace retsnoop {

enum class RetKind : uint8_t {
  Void = RS_RET_VOID,
  Bool = RS_RET_BOOL,
  Unsigned = RS_RET_UNSIGNED,
  Int32 = RS_RET_INT32,
  Int64 = RS_RET_INT64,
  Ptr = RS_RET_PTR,
  Int8 = RS_RET_INT8,
  Int16 = RS_RET_INT16,
  Neg8 = RS_RET_NEG8,
  Neg16 = RS_RET_NEG16,
  Neg32 = RS_RET_NEG32,
  Neg64 = RS_RET_NEG64,
  False = RS_RET_FALSE,
};

// False is the last kind: a kind added to the BPF side only breaks the build here.
static_assert(static_cast<int>(RetKind::False) + 1 == RS_RET_KIND_CNT,
              "RetKind must name every enum rs_ret_kind value");

// "void", "bool", "unsigned", "int", "long", "s8", "s16", "ptr", and for the user-space kinds
// "s8<0", "s16<0", "int<0", "long<0", "bool=false": how -v listings and warnings name a kind.
std::string_view ret_kind_word(RetKind kind);

inline bool can_fail(RetKind kind) { return rs_kind_can_fail(static_cast<uint8_t>(kind)); }

// Void, Bool and Unsigned never fail. Int32 fails when its low 32 bits, sign-extended, are an
// errno (-4095..-1); Int64 when the full value is; Ptr on NULL or an ERR_PTR (the top 4095
// values of the address space). Neg8..Neg64 fail when negative in their width, False when 0.
bool result_is_error(int64_t res, RetKind kind);

// The value returned, read in the width of the kind: Int32 sign-extends the low 32 bits, Int8
// and Int16 their narrow bits, Bool gives 0 or 1 from the low byte; the rest keep all 64 bits.
int64_t result_value(int64_t res, RetKind kind);

// The errno a failing result stands for; 0 for a failure that stands for none (NULL, false, a
// negative beyond -4095); nullopt for a result that did not fail (a positive 22 is not EINVAL).
std::optional<int> failure_errno(int64_t res, RetKind kind);

}  // namespace retsnoop
