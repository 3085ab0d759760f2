// How a traced function's return value is judged and printed in every view. The judging rule
// itself lives in bpf/result_kind.h, shared with the BPF program that decides what to report.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "discovery/func_info.h"

namespace retsnoop {

// Void, Bool and Unsigned never fail. Int32 fails when its low 32 bits, sign-extended, are an
// errno (-4095..-1); Int64 when the full value is; Ptr on NULL or an ERR_PTR (the top 4095
// values of the address space).
bool result_is_error(int64_t res, RetKind kind);

// The value returned, read in the width of the kind: Int32 sign-extends the low 32 bits, Int8
// and Int16 their narrow bits, Bool gives 0 or 1 from the low byte; the rest keep all 64 bits.
int64_t result_value(int64_t res, RetKind kind);

// The errno a failing result stands for, 0 for a NULL pointer; nullopt for a result that did
// not fail (a positive 22 is not EINVAL).
std::optional<int> failure_errno(int64_t res, RetKind kind);

// Bracketed result text:
//   Void                    [void]
//   Bool                    [true] / [false], judged on the low byte only
//   Int32, Int64            [-ENOMEM] for a known errno, [-4000] for an unnamed one in
//                           -4095..-1, otherwise decimal ([0], [5], [-5000]); Int32 looks
//                           at the sign-extended low 32 bits only
//   Ptr                     [NULL], [-ENOMEM] for ERR_PTR values, otherwise [0xffffc9000031e000]
//   Unsigned                decimal up to 0xffffffff ([42]), hex above ([0xffff888100000000])
std::string format_result(int64_t res, RetKind kind);

}  // namespace retsnoop
