// Kernel knobs (0/1 files in sysfs or procfs) that retsnoop flips while it attaches, then sets
// back. While a knob is flipped a marker file records it, so that a run killed meanwhile
// (SIGKILL: no destructor runs) is undone by the next one.
#pragma once

#include <string>

#include "util/owned_fd.h"

namespace retsnoop {

struct KnobChange {
  std::string knob;  // path of the 0/1 file
  char from = '0';
  char to = '1';
  std::string what;  // for messages, e.g. "expedited RCU grace periods"
};

inline const std::string kKnobMarkerDir = "/run/retsnoop";

// Sets the knob from `from` to `to` for as long as this object lives, then back. Does nothing
// when the knob is missing, read-only or not at `from` (somebody else chose its value), or when
// the marker cannot be written.
class KnobOverride {
 public:
  explicit KnobOverride(KnobChange change, std::string marker_dir = kKnobMarkerDir);
  ~KnobOverride();
  KnobOverride(const KnobOverride&) = delete;
  KnobOverride& operator=(const KnobOverride&) = delete;

  bool active() const { return switched_; }

  // Sets back the knobs of retsnoop runs that died while they had them flipped; returns how many.
  static size_t recover(const std::string& marker_dir = kKnobMarkerDir);

 private:
  const KnobChange change_;
  std::string marker_;
  OwnedFd knob_fd_;
  bool switched_ = false;
};

// Expedited RCU grace periods (/sys/kernel/rcu_expedited). Attaching and detaching single
// kprobes or trampolines waits for grace periods per probe, some of them serialized under kernel
// mutexes (bpf_event_mutex, event_mutex) where more threads cannot overlap them: expedited ones
// take a fraction of the time, at the price of an IPI to every CPU each, for the seconds the
// operation lasts.
class ExpeditedRcu : public KnobOverride {
 public:
  explicit ExpeditedRcu(std::string knob = "/sys/kernel/rcu_expedited",
                        std::string marker_dir = kKnobMarkerDir)
      : KnobOverride({std::move(knob), '0', '1', "expedited RCU grace periods"}, std::move(marker_dir)) {}
};

}  // namespace retsnoop
