// Entry functions whose calls can never fail by their return type (bpf/result_kind.h): an
// entry's successful return ends its session without a failure, so without -S none of their
// sessions is ever reported. Saying so at start-up spares the user a silent wait.
#pragma once

#include <string>
#include <vector>

#include "discovery/func_info.h"

namespace retsnoop {

// One warning line per such entry function, however many addresses it was found at, in table
// order.
std::vector<std::string> never_failing_entry_warnings(const FuncTable& funcs);

}  // namespace retsnoop
