// The --summary report as text and as one JSON line: unique failing stacks by count, with when
// each was first and last seen. Periodic reports in service mode and the one at exit look alike;
// only "final" tells them apart.
#pragma once

#include <string>

#include "discovery/host_identity.h"
#include "format/failure_summary.h"

namespace retsnoop {

std::string format_summary_text(const FailureSummary& summary, bool final);
std::string format_summary_json(const FailureSummary& summary, const HostIdentity& host,
                                bool final);

// "2026-11-23T20:19:36.372607Z": UTC, so reports from hosts in different time zones compare.
std::string utc_timestamp(int64_t realtime_ns);

}  // namespace retsnoop
