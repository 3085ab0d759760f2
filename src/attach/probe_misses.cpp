#include "attach/probe_misses.h"

#include <bpf/bpf.h>
#include <linux/bpf.h>

namespace retsnoop {

namespace {

// The start of struct bpf_link_info as of Linux 6.7, which added the "missed" counters; the
// build host's UAPI header may predate them. The kernel zero-fills what it does not know.
struct LinkInfoV67 {
  uint32_t type;
  uint32_t id;
  uint32_t prog_id;
  uint32_t pad;
  union {
    struct {
      uint64_t addrs;
      uint32_t count;
      uint32_t flags;
      uint64_t missed;
    } kprobe_multi;
    struct {
      uint32_t type;
      uint32_t pad;
      uint64_t func_name;
      uint32_t name_len;
      uint32_t offset;
      uint64_t addr;
      uint64_t missed;
    } perf_event;
  };
};

}  // namespace

uint64_t prog_recursion_misses(int prog_fd) {
  bpf_prog_info info{};
  uint32_t len = sizeof(info);
  if (bpf_obj_get_info_by_fd(prog_fd, &info, &len)) return 0;
  return info.recursion_misses;
}

uint64_t link_missed_hits(int link_fd) {
  LinkInfoV67 info{};
  uint32_t len = sizeof(info);
  if (bpf_obj_get_info_by_fd(link_fd, &info, &len)) return 0;
  switch (info.type) {
    case BPF_LINK_TYPE_KPROBE_MULTI: return info.kprobe_multi.missed;
    case BPF_LINK_TYPE_PERF_EVENT: return info.perf_event.missed;
    default: return 0;
  }
}

}  // namespace retsnoop
