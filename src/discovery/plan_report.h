// The --dry-run -v report of a function plan.
#pragma once

#include <string>
#include <string_view>

#include "discovery/func_plan.h"

namespace retsnoop {

// vmlinux: path of the DWARF image used, empty when none. verbosity >= 2 (-vv) adds per-glob
// match counts.
std::string render_plan(const FuncPlan& plan, std::string_view vmlinux, int verbosity);

}  // namespace retsnoop
