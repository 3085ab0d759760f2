// The --summary aggregation: every reported session counted under its stack fingerprint, with
// when it was first and last seen. What a long-running service reports periodically and at exit,
// and what folded stacks for flame graphs are made of.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "format/stack_fingerprint.h"

namespace retsnoop {

struct SummaryEntry {
  std::string fingerprint;
  StackSignature signature;
  uint64_t count = 0;
  int64_t first_seen_ns = 0;  // CLOCK_REALTIME
  int64_t last_seen_ns = 0;
  std::string message;  // the first kernel message of the first session that had one, one line
};

class FailureSummary {
 public:
  // message: the session's first kernel message (kernel_message_line()), empty when none.
  void add(const StackSignature& sig, int64_t seen_ns, const std::string& message = {}) {
    add(sig, seen_ns, seen_ns, 1, message);
  }
  // count sessions with the same stack, seen from first_ns to last_ns (-C stacks.repeats=count).
  void add(const StackSignature& sig, int64_t first_ns, int64_t last_ns, uint64_t count,
           const std::string& message = {});
  // Most frequent first; ties by first seen, then by fingerprint, so the order is stable.
  std::vector<SummaryEntry> by_count() const;
  uint64_t sessions() const { return sessions_; }

 private:
  std::unordered_map<std::string, SummaryEntry> entries_;  // by fingerprint
  uint64_t sessions_ = 0;
};

}  // namespace retsnoop
