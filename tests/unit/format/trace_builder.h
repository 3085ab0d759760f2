// Builds Session::trace records from a readable script of calls, with consistent sequence
// numbers, depths and timestamps.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "events/session.h"
#include "test_funcs.h"

namespace retsnoop::test {

class TraceBuilder {
 public:
  // BPF depth numbering need not start at 0; the view must not care.
  TraceBuilder(const TestFuncs& funcs, uint16_t first_depth = 1)
      : funcs_(funcs), depth_(first_depth) {}

  TraceBuilder& enter(const std::string& name) {
    open_.push_back(
        push({.func_id = funcs_.id(name), .kind = TraceRecordKind::Entry, .ts_ns = now_}));
    ++depth_;
    return *this;
  }

  // Returns from the innermost open call dur_ns after it started.
  TraceBuilder& leave(int64_t res, uint64_t dur_ns) {
    --depth_;
    TraceRecord entry = records_[open_.back()];
    open_.pop_back();
    now_ = std::max(now_, entry.ts_ns + dur_ns);
    push({.func_id = entry.func_id, .dur_ns = dur_ns, .res = res});
    return *this;
  }

  TraceBuilder& leaf(const std::string& name, int64_t res, uint64_t dur_ns) {
    return enter(name).leave(res, dur_ns);
  }

  // An injected probe hit inside the innermost open call.
  TraceBuilder& probe(uint32_t probe_id) {
    push({.probe_id = probe_id, .kind = TraceRecordKind::Probe, .ts_ns = now_});
    return *this;
  }

  // The next n records never arrived.
  TraceBuilder& lose(uint32_t n) {
    seq_ += n;
    return *this;
  }

  std::vector<TraceRecord> records() const { return records_; }

 private:
  // Fills in sequence number and depth; the clock moves on a little with every record.
  size_t push(TraceRecord r) {
    r.seq = seq_++;
    r.depth = depth_;
    records_.push_back(r);
    now_ += 100;
    return records_.size() - 1;
  }

  const TestFuncs& funcs_;
  uint16_t depth_;
  uint32_t seq_ = 0;
  uint64_t now_ = 1000000;
  std::vector<size_t> open_;  // indexes of open entries in records_
  std::vector<TraceRecord> records_;
};

}  // namespace retsnoop::test
