// One way of writing what a run reports: the main output's text or JSON, or an export file.
// SessionReport hands every format each reported session, each count of repeats and each
// summary, so a new output format is one class that overrides what it writes and a line in
// SessionReport's constructor that chooses it (docs/ARCHITECTURE.md, "A new output format").
#pragma once

#include <cstdint>
#include <string>

#include "discovery/host_identity.h"
#include "events/repeat_group.h"
#include "events/session.h"
#include "format/failure_summary.h"
#include "format/format_options.h"

namespace retsnoop {

class ReportFormat {
 public:
  virtual ~ReportFormat() = default;

  // A reported session. out is the main output's buffer: the main output's formats append to
  // it, an export writes its own file instead. Printer thread only, like every call here.
  virtual void session(std::string& out, const Session& s, const FormatContext& ctx,
                       int64_t mono_to_real_ns) = 0;
  // The repeats BPF counted of an earlier session (-C stacks.repeats=count), fingerprint being
  // that session's stack fingerprint.
  virtual void repeats(std::string&, const RepeatGroup&, const std::string& /*fingerprint*/,
                       int64_t /*mono_to_real_ns*/) {}
  // The failing stacks so far (--summary); final at exit.
  virtual void summary(std::string&, const FailureSummary&, const HostIdentity&, bool /*final*/) {}
  // Once the printer thread has stopped: an export completes its file from what it wrote and
  // the run's failing stacks.
  virtual void finish(const FailureSummary&) {}
};

}  // namespace retsnoop
