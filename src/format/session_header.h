// "20:19:36.372607 -> 20:19:36.372682 TID/PID 8346/8346 (simfail/simfail):"; an interim
// session (-I) ends in " [interim]:" and its end time is when it was reported.
#pragma once

#include <cstdint>
#include <string>

#include "events/session.h"

namespace retsnoop {

class FormatCache;

// Session times are CLOCK_MONOTONIC; mono_to_real_ns (CLOCK_REALTIME minus CLOCK_MONOTONIC,
// sampled once by the caller) turns them into wall-clock time, printed in the local time zone.
// cache, when given, remembers the time of day of the last second.
void append_session_header(std::string& out, const Session& s, int64_t mono_to_real_ns,
                           FormatCache* cache = nullptr);

// "HH:MM:SS.uuuuuu" in the local time zone for a CLOCK_MONOTONIC timestamp.
std::string wall_clock(uint64_t mono_ns, int64_t mono_to_real_ns, FormatCache* cache = nullptr);

}  // namespace retsnoop
