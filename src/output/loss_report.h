// Where reported sessions end up, and what is said about the ones that never reach stdout: a
// line at most once per second while receiving, and an exact account at exit.
#pragma once

#include <cstdint>
#include <string>

namespace retsnoop {

// Cumulative counts since the start. Every session BPF decides to report ends in exactly one
// of: dropped, left in the ring buffer, filtered, queue_full, printed, or still queued when
// printing stopped.
struct SessionCounts {
  uint64_t reported = 0;     // BPF: sessions it sent or tried to send (interim ones included)
  uint64_t dropped = 0;      // BPF: their header did not fit in the ring buffer
  uint64_t not_started = 0;  // BPF: the session map was full when they began
  uint64_t received = 0;     // decoded from the ring buffer
  uint64_t incomplete = 0;   // received with some part lost (printed with a warning)
  uint64_t filtered = 0;     // received, not reported because of a SessionFilter
  uint64_t queue_full = 0;   // received while the print queue was full
  uint64_t printed = 0;
  // Sessions whose content is wrong or missing, reported apart from the lost ones above.
  uint64_t broken = 0;          // BPF: an exit without its entry (a missed probe hit)
  uint64_t depth_overflow = 0;  // BPF: calls deeper than the session records
  uint64_t malformed = 0;       // records that did not decode
  uint64_t orphaned = 0;        // session parts whose header never came
  // -C stacks.repeats=count: failing sessions BPF counted as repeats of a reported one instead
  // of reporting them. Each ends in exactly one of: printed (as a count after the session it
  // repeats), unprinted with that session (filtered or not queued), or still waiting at stop.
  uint64_t counted = 0;
  uint64_t counted_printed = 0;
  uint64_t counted_unprinted = 0;

  // Sessions BPF reported that never made it to stdout (filtered ones are not lost).
  uint64_t lost() const;
  // Counted repeats whose count was not printed when printing stopped.
  uint64_t counted_lost() const;
};

// The warning for losses that happened between two snapshots; empty when there were none.
std::string live_loss_line(const SessionCounts& before, const SessionCounts& now);

// The account at exit, printed whatever the verbosity: empty when nothing was lost, dropped,
// incomplete, broken or malformed.
std::string final_loss_report(const SessionCounts& c);

// The -v summary at exit: what was reported, printed and filtered.
std::string session_summary(const SessionCounts& c);

}  // namespace retsnoop
