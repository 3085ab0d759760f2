// One recorded session as the user reads it.
#pragma once

#include <cstdint>
#include <string>

#include "events/session.h"
#include "format/format_options.h"

namespace retsnoop {

// Header line, a blank line, then the views separated by blank lines: call trace table (-T),
// LBR records (--lbr), stack trace, kernel messages, source line trace
// (--line-trace), then a WARNING line for lost
// records or a failed kernel stack capture. Ends with two blank lines, which separate sessions.
void append_session(std::string& out, const Session& s, const FormatContext& ctx,
                    int64_t mono_to_real_ns);

}  // namespace retsnoop
