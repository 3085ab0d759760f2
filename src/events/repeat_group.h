// -C stacks.repeats=count: the sessions BPF counted instead of sending, as repeats of one it
// sent in full (bpf/repeat_key.h says which are the same), over one interval.
#pragma once

#include <cstdint>
#include <vector>

#include "bpf/abi.h"

namespace retsnoop {

struct RepeatTask {
  uint32_t tid = 0;
  uint32_t pid = 0;
  bool operator==(const RepeatTask&) const = default;
};

struct RepeatGroup {
  uint64_t first_id = 0;  // the session printed in full
  uint64_t count = 0;     // repeats counted
  uint64_t first_ns = 0;  // end of the first and the last repeat, CLOCK_MONOTONIC
  uint64_t last_ns = 0;
  std::vector<RepeatTask> tasks;  // the tasks that repeated it, up to RS_REPEAT_TASKS
  bool more_tasks = false;        // other tasks repeated it too
};

// The entry of the repeats map as user space reports it; a group of 0 repeats has count 0.
RepeatGroup repeat_group(const rs_repeat& r);

// True when no program can still be adding to an entry of interval `entry`: sessions end in
// interval `current` now, and one that read the previous interval just before it advanced may
// still be finishing its update.
bool repeat_interval_settled(uint64_t entry, uint64_t current);

}  // namespace retsnoop
