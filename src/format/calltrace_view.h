// The -T function call trace table.
#pragma once

#include <string>

#include "events/session.h"
#include "format/format_options.h"

namespace retsnoop {

// FUNCTION CALL TRACE / RESULT / DURATION table from Session::trace, every line ending in '\n':
// "→ f" entry, "← f" exit, "↔ f" an entry directly followed by its own exit, "◎ kprobe:f+0x5" an
// injected probe's hit, one level inside the calls running when it hit, "· f+0x13 (file:line:col)"
// a source line hit (--line-trace), one level inside its call; four spaces per
// nesting level (capped at 20 levels); result and duration on exit rows (an exit record carries
// its call's duration, so it has one even when its entry was lost); "[...]" where record
// sequence numbers jump (records were lost), and a closing note when Session::trace_lost > 0.
std::string format_calltrace(const Session& s, const FormatContext& ctx);

}  // namespace retsnoop
