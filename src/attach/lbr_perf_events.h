// Keeps every online CPU's branch recorder running while retsnoop traces (LBR mode).
// bpf_get_branch_snapshot() only copies what the hardware has already recorded, and the kernel
// turns the recorder on only while a perf event with branch-stack sampling is scheduled on that
// CPU. A counting event (no sample period, no ring buffer) is enough: it keeps the recorder on
// without ever interrupting the CPU, and nobody needs to read it.
#pragma once

#include <linux/perf_event.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "util/error.h"
#include "util/owned_fd.h"

namespace retsnoop {

// What -R records when no SPEC is given: returns, which show the functions called before the
// deepest traced one even if they are not traced themselves.
constexpr uint64_t kDefaultLbrBranchTypes = PERF_SAMPLE_BRANCH_ANY_RETURN;

class LbrPerfEvents {
 public:
  // One event per online CPU recording kernel branches of branch_types (PERF_SAMPLE_BRANCH_*
  // bits, 0: the default). Throws LbrUnavailable naming the reason if any CPU refuses;
  // nothing stays open then.
  explicit LbrPerfEvents(uint64_t branch_types);
  size_t cpu_count() const { return events_.size(); }

 private:
  std::vector<OwnedFd> events_;
};

// The attributes of each CPU's event.
perf_event_attr lbr_event_attr(uint64_t branch_types);

// Why perf_event_open() failing with err leaves LBR mode without branch records, in a few words.
// default_types: the user gave no SPEC, so an unsupported filter cannot be the cause.
std::string lbr_open_failure_reason(int err, bool default_types);

// LBR mode on a machine that cannot record branches: the caller goes on without them.
class LbrUnavailable : public UserError {
 public:
  using UserError::UserError;
};

// "LBR is unavailable: REASON", one line.
LbrUnavailable lbr_unavailable(const std::string& reason);

}  // namespace retsnoop
