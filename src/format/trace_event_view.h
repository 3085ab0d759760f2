// A -T session as Chrome trace events (the JSON that Perfetto, chrome://tracing and speedscope
// open as a timeline): one track per thread, a begin/end slice pair per traced call, nested as
// the calls were, with the result as an argument of the end event. Times are microseconds of
// CLOCK_MONOTONIC, as the format wants.
#pragma once

#include <nlohmann/json.hpp>

#include "discovery/func_info.h"
#include "events/session.h"

namespace retsnoop {

// The session's thread-name metadata event, then its slices in time order. Every begin gets its
// end: calls whose exit record was lost end with the session, and no call ends after the call
// that contains it.
nlohmann::json session_trace_events(const Session& s, const FuncTable& funcs);

}  // namespace retsnoop
