// -A, with -v: how the arguments of the traced functions will be captured, and which functions
// fall back to raw registers and why.
#pragma once

#include <string>
#include <vector>

#include "discovery/arg_plan.h"
#include "discovery/func_info.h"

namespace retsnoop {

// plans is indexed like funcs. A summary line, then one note per function name that falls back
// to raw registers (at most kMaxRawNotes, then how many more); every line ends in '\n'.
std::vector<std::string> arg_plan_notes(const FuncTable& funcs,
                                        const std::vector<FuncArgs>& plans);

inline constexpr size_t kMaxRawNotes = 20;

}  // namespace retsnoop
