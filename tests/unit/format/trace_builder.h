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
    open_.push_back(push(funcs_.id(name), true, now_, 0));
    ++depth_;
    return *this;
  }

  // Returns from the innermost open call dur_ns after it started.
  TraceBuilder& leave(int64_t res, uint64_t dur_ns) {
    --depth_;
    TraceRecord entry = records_[open_.back()];
    open_.pop_back();
    push(entry.func_id, false, entry.ts_ns + dur_ns, res);
    return *this;
  }

  TraceBuilder& leaf(const std::string& name, int64_t res, uint64_t dur_ns) {
    return enter(name).leave(res, dur_ns);
  }

  // The next n records never arrived.
  TraceBuilder& lose(uint32_t n) {
    seq_ += n;
    return *this;
  }

  std::vector<TraceRecord> records() const { return records_; }

 private:
  size_t push(uint32_t func_id, bool is_entry, uint64_t ts, int64_t res) {
    records_.push_back({.func_id = func_id,
                        .seq = seq_++,
                        .depth = depth_,
                        .is_entry = is_entry,
                        .ts_ns = ts,
                        .res = res});
    now_ = std::max(now_, ts) + 100;
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
