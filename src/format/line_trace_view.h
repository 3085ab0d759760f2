// --line-trace: the source lines a session ran through, as its line probes saw them.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "events/session.h"
#include "format/format_options.h"
#include "format/frame_text.h"

namespace retsnoop {

// The hit's symbol and source rows: "func+0xoff (file:line:col)", then ". inlined (file:line:col)"
// per inlined call the line belongs to, as stack frames show them. A hit whose line id is not in
// the table (a corrupt record) gets one placeholder row.
std::vector<TextLine> line_hit_lines(const LineHit& hit, const FormatContext& ctx);

// The line each traced call of the reported stack returned from: its last hit inside that call,
// by index into s.lines, with the call's result text ("[-EINVAL]").
std::map<size_t, std::string> returning_hits(const Session& s, const FormatContext& ctx);

// "SOURCE LINE TRACE (oldest first)", a notice for hits no longer kept, then one hit per row
// (plus its inline rows), the line a call returned from followed by "<- returned [result]".
// Every line ends in '\n'. Empty when the session has no hit.
std::string format_line_trace(const Session& s, const FormatContext& ctx);

}  // namespace retsnoop
