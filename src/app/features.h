// Kernel feature probes, run once at start. The attach-mode choice, -V -v and the tests all
// read this one table.
#pragma once

#include <string>

namespace retsnoop {

enum class Feature {
  Ringbuf,
  FuncIp,
  BranchSnapshot,
  BpfCookie,
  MultiKprobe,
  Count,
};

class Features {
 public:
  // Runs every probe (needs CAP_BPF/CAP_SYS_ADMIN; a probe that cannot run reads "no").
  static Features detect();
  bool has(Feature f) const { return present_[static_cast<int>(f)]; }
  // The "Feature detection:" block of -V -v.
  std::string report() const;

 private:
  bool present_[static_cast<int>(Feature::Count)] = {};
};

}  // namespace retsnoop
