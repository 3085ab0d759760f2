// Function id -> FuncInfo for the views; ids come from BPF records and are not trusted blindly.
#pragma once

#include <cstdint>

#include "discovery/func_info.h"

namespace retsnoop {

// A placeholder named "[unknown]" for ids outside the table, so a corrupt record degrades one
// line instead of aborting the whole output.
const FuncInfo& lookup_func(const FuncTable& funcs, uint32_t func_id);

}  // namespace retsnoop
