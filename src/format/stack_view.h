// The default stack trace view: the captured kernel stack merged with the traced calls.
#pragma once

#include <string>

#include "events/session.h"
#include "format/format_options.h"

namespace retsnoop {

// One line per frame, outermost first, every line ending in '\n':
//   MM DURATION RESULT  symbol+0xoff  (file:line:col)
// MM is '!' for a traced call with no kernel frame (printed after the frames, name only) and
// '*' for a stitched level. Kernel frames above the first traced call, and traced calls still
// running in an interim session (-I), carry no duration or result. Inlined calls follow their frame
// as ". name" lines. Column widths fit the widest cell of the whole stack.
void append_stack(std::string& out, const Session& s, const FormatContext& ctx);

}  // namespace retsnoop
