// -A: a classic tracepoint's fields decoded from what its hit captured (the record's fixed part
// and its __data_loc fields' bytes), by the C types of the event's format file.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "discovery/func_args.h"
#include "events/captured_args.h"
#include "format/arg_value.h"

namespace retsnoop {

// plan.tp_fields in order, named. A field whose bytes were not all captured (past the record
// bytes read) is an empty value marked truncated.
std::vector<std::pair<std::string, ArgValue>> decode_tp_fields(const FuncArgs& plan,
                                                               const CapturedArgs& cap);

}  // namespace retsnoop
