#include "attach/line_probe_links.h"

#include <bpf/libbpf.h>
#include <linux/perf_event.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "util/error.h"
#include "util/file_text.h"
#include "util/owned_fd.h"

namespace retsnoop {

namespace {

constexpr const char* kKprobePmuType = "/sys/bus/event_source/devices/kprobe/type";

int kprobe_pmu_type() {
  std::optional<std::string> text = read_text_file(kKprobePmuType);
  if (!text)
    throw UserError(std::string("--line-trace: the kernel has no kprobe PMU (") + kKprobePmuType +
                    ": " + std::strerror(errno) + ")");
  return std::stoi(*text);
}

// By address, not symbol+offset: a static function's name may be shared, and since 6.5 the
// kernel refuses such names.
OwnedFd open_kprobe_at(int pmu_type, uint64_t addr) {
  perf_event_attr attr = {};
  attr.size = sizeof(attr);
  attr.type = uint32_t(pmu_type);
  attr.config1 = 0;     // kprobe_func: none, so that config2 is the address
  attr.config2 = addr;  // kprobe_addr
  return OwnedFd(int(syscall(__NR_perf_event_open, &attr, -1 /* every task */, 0 /* CPU */,
                             -1 /* group */, PERF_FLAG_FD_CLOEXEC)));
}

}  // namespace

LineProbeLinks::LineProbeLinks(TracerObject& obj, const std::vector<LineProbe>& probes) {
  int pmu_type = kprobe_pmu_type();
  for (uint32_t id = 0; id < probes.size(); ++id) {
    OwnedFd event = open_kprobe_at(pmu_type, probes[id].addr);
    if (!event) {
      skipped_.push_back({id, errno});
      continue;
    }
    LIBBPF_OPTS(bpf_perf_event_opts, opts, .bpf_cookie = id);
    bpf_link* link = bpf_program__attach_perf_event_opts(obj.line_prog(), event.get(), &opts);
    if (!link) {
      skipped_.push_back({id, errno});
      continue;
    }
    event.release();  // the link owns it now
    links_.emplace_back(link);
  }
  if (links_.empty() && !probes.empty())
    throw UserError("--line-trace: the kernel refused every line probe (" +
                    std::string(std::strerror(skipped_.front().err)) + ")");
}

}  // namespace retsnoop
