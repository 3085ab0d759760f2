#include "attach/kprobe_pmu.h"

#include <linux/perf_event.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <string>

#include "util/file_text.h"

namespace retsnoop {

std::optional<int> kprobe_pmu_type() {
  std::optional<std::string> text = read_text_file("/sys/bus/event_source/devices/kprobe/type");
  if (!text) return std::nullopt;
  return std::stoi(*text);
}

OwnedFd open_kprobe_at(int pmu_type, uint64_t addr) {
  perf_event_attr attr = {};
  attr.size = sizeof(attr);
  attr.type = uint32_t(pmu_type);
  attr.config1 = 0;     // kprobe_func: none, so that config2 is the address
  attr.config2 = addr;  // kprobe_addr
  return OwnedFd(int(syscall(__NR_perf_event_open, &attr, -1 /* every task */, 0 /* CPU */,
                             -1 /* group */, PERF_FLAG_FD_CLOEXEC)));
}

}  // namespace retsnoop
