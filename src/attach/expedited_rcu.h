// Expedited RCU grace periods for as long as this object lives (/sys/kernel/rcu_expedited), then
// the previous setting again. Attaching and detaching single kprobes waits for several grace
// periods per probe, and some of them are serialized under kernel mutexes (bpf_event_mutex,
// event_mutex), where more threads cannot overlap them: expedited ones take a fraction of the
// time, at the price of an IPI to every CPU each, for the seconds the operation lasts. A retsnoop
// killed with SIGKILL meanwhile leaves the setting on: slower-to-nothing, never incorrect.
#pragma once

#include <string>

namespace retsnoop {

class ExpeditedRcu {
 public:
  // Does nothing when the knob is missing, read-only or already on.
  explicit ExpeditedRcu(std::string knob = "/sys/kernel/rcu_expedited");
  ~ExpeditedRcu();
  ExpeditedRcu(const ExpeditedRcu&) = delete;
  ExpeditedRcu& operator=(const ExpeditedRcu&) = delete;

 private:
  const std::string knob_;
  bool switched_on_ = false;
};

}  // namespace retsnoop
