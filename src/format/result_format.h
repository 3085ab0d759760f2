// How a traced function's return value is printed in every view; discovery/ret_kind.h judges it.
#pragma once

#include <cstdint>
#include <string>

#include "discovery/func_info.h"

namespace retsnoop {

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
