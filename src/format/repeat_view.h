// -C stacks.repeats=count: the line that follows a printed session with the number of identical
// sessions BPF counted instead of sending, naming them by the printed one's stack fingerprint.
#pragma once

#include <string>

#include "events/repeat_group.h"

namespace retsnoop {

// "... and 41 more identical sessions (fingerprint 0123456789abcdef, TID/PID 7/7 9/7,
// first 10:00:00.000001, last 10:00:00.500000)"
std::string format_repeats(const RepeatGroup& g, const std::string& fingerprint,
                           int64_t mono_to_real_ns);

// The same as one JSON object per line, "type": "repeats".
std::string format_repeats_json(const RepeatGroup& g, const std::string& fingerprint,
                                int64_t mono_to_real_ns);

}  // namespace retsnoop
