// --json: one JSON object per session on one line, for scripts and log pipelines. It carries the
// same merged stack, call trace and LBR records as the text views, with raw values beside the
// rendered ones, and the fingerprint of its stack (plus the host, kernel release and boot id when
// the context names the host) so that a log store can group one failure across a fleet.
#pragma once

#include <cstdint>
#include <string>

#include "events/session.h"
#include "format/format_options.h"

namespace retsnoop {

std::string format_session_json(const Session& s, const FormatContext& ctx,
                                int64_t mono_to_real_ns);

}  // namespace retsnoop
