#include "app/repeat_collector.h"

#include <bpf/bpf.h>

#include <algorithm>

namespace retsnoop {

std::vector<RepeatGroup> RepeatCollector::collect() {
  obj_.set_repeat_interval(++interval_);
  return take(false);
}

std::vector<RepeatGroup> RepeatCollector::collect_all() { return take(true); }

// Keys are gathered first: deleting while walking would restart the walk.
std::vector<RepeatGroup> RepeatCollector::take(bool all) {
  int fd = obj_.repeats_fd();
  std::vector<rs_repeat_key> keys;
  rs_repeat_key key, next;
  const void* prev = nullptr;
  while (bpf_map_get_next_key(fd, prev, &next) == 0) {
    if (all || repeat_interval_settled(next.interval, interval_)) keys.push_back(next);
    key = next;
    prev = &key;
  }
  std::vector<RepeatGroup> groups;
  for (const rs_repeat_key& k : keys) {
    rs_repeat r;
    if (bpf_map_lookup_elem(fd, &k, &r) == 0) groups.push_back(repeat_group(r));
    bpf_map_delete_elem(fd, &k);
  }
  // In the order their first sessions were printed.
  std::sort(groups.begin(), groups.end(),
            [](const RepeatGroup& a, const RepeatGroup& b) { return a.first_id < b.first_id; });
  return groups;
}

}  // namespace retsnoop
