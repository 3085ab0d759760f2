#include "events/repeat_group.h"

#include <algorithm>

namespace retsnoop {

RepeatGroup repeat_group(const rs_repeat& r) {
  RepeatGroup g{
      .first_id = r.first_id, .count = r.count, .first_ns = r.first_ns, .last_ns = r.last_ns};
  uint32_t cnt = std::min<uint32_t>(r.task_cnt, RS_REPEAT_TASKS);
  for (uint32_t i = 0; i < cnt; ++i) g.tasks.push_back({r.tids[i], r.pids[i]});
  // BPF stops naming tasks once the entry is full: the list may then leave some out.
  g.more_tasks = cnt == RS_REPEAT_TASKS;
  return g;
}

bool repeat_interval_settled(uint64_t entry, uint64_t current) { return entry + 1 < current; }

}  // namespace retsnoop
