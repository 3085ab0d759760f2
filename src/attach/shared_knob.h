// Kernel knobs (0/1 files in sysfs or procfs) that retsnoop may flip while it attaches and
// detaches, then set back. Concurrent runs share the change: the first one flips the knob, the
// last one sets it back, and none sets back a value that somebody else chose meanwhile. A state
// file in the run state directory lists the runs holding the change, so that when they have
// all died (SIGKILL: no destructor runs) the next run sets the knob back.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "attach/run_registry.h"
#include "util/owned_fd.h"

namespace retsnoop {

struct KnobChange {
  std::string knob;  // path of the 0/1 file
  char from = '0';
  char to = '1';
  std::string what;  // for messages, e.g. "expedited RCU grace periods"
};

// Expedited RCU grace periods (/sys/kernel/rcu_expedited). Attaching and detaching single
// kprobes or trampolines waits for grace periods per probe, some of them serialized under
// kernel mutexes where more threads cannot overlap them: expedited ones take a fraction of the
// time, at the price of an IPI to every CPU each, on the whole machine, while they last.
KnobChange rcu_expedited_change(std::string knob = "/sys/kernel/rcu_expedited");

// The state file's content: the change, then the ids of the runs holding it, a line each.
struct KnobState {
  KnobChange change;
  std::vector<std::string> holders;
  bool operator==(const KnobState& o) const {
    return change.knob == o.change.knob && change.from == o.change.from &&
           change.to == o.change.to && holders == o.holders;
  }
};
std::string render_knob_state(const KnobState& s);
std::optional<KnobState> parse_knob_state(std::string_view text);

// Holds the change for as long as it lives. Holds nothing when the knob is missing or
// read-only, when it is at neither value of the change (somebody else chose it), or when the
// run is not registered (a crash could not be undone).
class SharedKnob {
 public:
  SharedKnob(KnobChange change, const RunStateDir& dir, const RunLock& run);
  ~SharedKnob();
  SharedKnob(const SharedKnob&) = delete;
  SharedKnob& operator=(const SharedKnob&) = delete;

  bool holding() const { return holding_; }

  // Sets back the knobs whose holders have all died; returns a line for each knob set back.
  // Call it holding the directory's lock.
  static std::vector<std::string> recover(const RunStateDir& dir, const RunStateDir::Guard& held);

 private:
  const KnobChange change_;
  const RunStateDir& dir_;
  const std::string run_id_;
  OwnedFd knob_fd_;  // opened up front: setting the knob back must not need a free descriptor
  bool holding_ = false;
};

}  // namespace retsnoop
