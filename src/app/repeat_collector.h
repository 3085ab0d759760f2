// -C stacks.repeats=count: collects the repeats BPF counted (struct rs_repeat_key in
// bpf/abi.h). Each collect starts a new interval and takes the entries of the intervals no
// program can still be updating out of the map, so every counted session is reported once.
#pragma once

#include <vector>

#include "attach/tracer_object.h"
#include "events/repeat_group.h"

namespace retsnoop {

class RepeatCollector {
 public:
  explicit RepeatCollector(TracerObject& obj) : obj_(obj) {}

  // Advances the interval; returns the groups of the settled intervals, those without repeats
  // too (their first session is then known to have none).
  std::vector<RepeatGroup> collect();
  // Once the tracer is deactivated: every group left.
  std::vector<RepeatGroup> collect_all();

 private:
  std::vector<RepeatGroup> take(bool all);

  TracerObject& obj_;
  uint64_t interval_ = 0;
};

}  // namespace retsnoop
