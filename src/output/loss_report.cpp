#include "output/loss_report.h"

#include <string>
#include <vector>

#include "bpf/abi.h"
#include "util/strings.h"

namespace retsnoop {

namespace {

uint64_t minus(uint64_t a, uint64_t b) { return a > b ? a - b : 0; }

void add_count(std::vector<std::string>& parts, uint64_t n, const char* what) {
  if (n) parts.push_back(std::to_string(n) + " " + what);
}

std::string sessions(uint64_t n) { return std::to_string(n) + (n == 1 ? " session" : " sessions"); }
std::string calls(uint64_t n) { return std::to_string(n) + (n == 1 ? " call" : " calls"); }

// Received sessions the printer never got to, and sent ones never read from the ring buffer:
// both were still waiting when printing stopped.
uint64_t pending_at_stop(const SessionCounts& c) {
  uint64_t in_ring = minus(minus(c.reported, c.dropped), c.received);
  uint64_t queued = minus(c.received, c.filtered + c.queue_full + c.printed);
  return in_ring + queued;
}

// Every failing session is either reported or counted as a repeat of a reported one.
std::string repeats_account(const SessionCounts& c) {
  std::string out = "Repeats: " + sessions(c.counted) + " counted as repeats of reported ones (" +
                    std::to_string(c.reported) + " reported + " + std::to_string(c.counted) +
                    " counted = " + std::to_string(c.reported + c.counted) + "); " +
                    std::to_string(c.counted_printed) + " printed as counts";
  if (c.counted_unprinted)
    out +=
        ", " + std::to_string(c.counted_unprinted) + " not printed with the sessions they repeat";
  if (c.counted_lost())
    out += ", " + std::to_string(c.counted_lost()) + " not printed before the stop";
  return out + ".\n";
}

}  // namespace

uint64_t SessionCounts::lost() const { return minus(reported, printed + filtered); }

uint64_t SessionCounts::counted_lost() const {
  return minus(counted, counted_printed + counted_unprinted);
}

std::string live_loss_line(const SessionCounts& before, const SessionCounts& now) {
  std::vector<std::string> parts;
  add_count(parts, minus(now.dropped, before.dropped), "dropped (BPF ring buffer full)");
  add_count(parts, minus(now.queue_full, before.queue_full), "not queued (print queue full)");
  add_count(parts, minus(now.incomplete, before.incomplete), "incomplete");
  add_count(parts, minus(now.not_started, before.not_started), "not started (session map full)");
  if (parts.empty()) return {};
  return "sessions lost in the last second: " + join(parts, ", ") + "\n";
}

std::string final_loss_report(const SessionCounts& c) {
  std::string out;
  std::vector<std::string> lost;
  add_count(lost, c.dropped,
            "dropped (BPF ring buffer full, consider increasing -C bpf.ringbuf-size)");
  add_count(lost, c.queue_full, "not printed (print queue full)");
  add_count(lost, pending_at_stop(c), "not printed before the stop");
  if (!lost.empty())
    out += "Lost " + std::to_string(c.lost()) + " of " + sessions(c.reported) + ": " +
           join(lost, ", ") + ".\n";
  if (c.counted) out += repeats_account(c);
  if (c.incomplete)
    out += sessions(c.incomplete) +
           " printed incomplete: some of their records did not fit in the BPF ring buffer.\n";
  if (c.not_started)
    out += sessions(c.not_started) +
           " could not start: the session map was full (consider increasing -C "
           "bpf.sessions-size).\n";
  if (c.broken)
    out +=
        sessions(c.broken) + " broken: the kernel dropped probe hits (see -v for missed hits).\n";
  if (c.depth_overflow)
    out += calls(c.depth_overflow) + " deeper than " + std::to_string(RS_MAX_DEPTH) +
           " levels were not recorded.\n";
  std::vector<std::string> garbled;
  add_count(garbled, c.malformed, "records did not decode");
  add_count(garbled, c.orphaned, "session parts never got their session");
  if (!garbled.empty()) out += "Ring buffer: " + join(garbled, ", ") + ".\n";
  return out;
}

std::string session_summary(const SessionCounts& c) {
  return "Sessions: " + std::to_string(c.reported) + " reported, " + std::to_string(c.printed) +
         " printed, " + std::to_string(c.filtered) +
         " filtered by -x/-X/--allow-retval/--deny-retval.\n";
}

}  // namespace retsnoop
