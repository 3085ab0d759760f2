// What the printer thread makes of every reported session: the main output's text or JSON, and
// what --summary, --export-trace and --export-folded gather from it, each a ReportFormat.
// Hooked where sessions are formatted, so the summary counts exactly the sessions that were
// reported.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "discovery/host_identity.h"
#include "events/repeat_group.h"
#include "format/failure_summary.h"
#include "format/format_options.h"
#include "output/report_format.h"

namespace retsnoop {

struct ReportOptions {
  bool json = false;                         // --json
  bool summary = false;                      // --summary
  std::chrono::seconds summary_interval{0};  // -C summary.interval; 0: at exit only
  std::string export_trace;                  // --export-trace FILE, empty: none
  std::string export_folded;                 // --export-folded FILE, empty: none
};

class SessionReport {
 public:
  // Opens the export files (throws UserError when one can't be written): call before attaching.
  explicit SessionReport(const ReportOptions& opts);

  const HostIdentity& host() const { return host_; }
  // Printer thread only: appends the session to out, the printer's buffer. With -C
  // summary.interval, a session arriving after the interval ran out is followed by the summary
  // so far.
  void append(std::string& out, const Session& s, const FormatContext& ctx,
              int64_t mono_to_real_ns);
  // Printer thread only: the repeats of a session append() had (-C stacks.repeats=count), under
  // its fingerprint, and counted like it in the summary.
  std::string repeats_text(const RepeatGroup& g, int64_t mono_to_real_ns);
  // Once the printer thread has stopped: completes the export files and returns the exit
  // summary (empty without --summary), for the caller to print like its other status lines.
  std::string finish();

 private:
  using Clock = std::chrono::steady_clock;

  std::string summary(bool final) const;
  std::string periodic_summary();

  bool summary_;
  bool aggregate_;  // --summary or --export-folded
  std::chrono::seconds interval_;
  Clock::time_point next_summary_;
  HostIdentity host_;
  FailureSummary failures_;
  // Formatted sessions whose repeats are still to come, by session id.
  std::unordered_map<uint64_t, StackSignature> repeated_;
  // The main output's format first, then the exports.
  std::vector<std::unique_ptr<ReportFormat>> formats_;
};

}  // namespace retsnoop
