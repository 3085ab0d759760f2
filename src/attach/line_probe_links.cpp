#include "attach/line_probe_links.h"

#include <bpf/libbpf.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "attach/probe_pmu.h"
#include "util/error.h"

namespace retsnoop {

namespace {

int line_kprobe_pmu_type() {
  std::optional<int> type = kprobe_pmu_type();
  if (!type)
    throw UserError(std::string("--line-trace: the kernel has no kprobe PMU (") +
                    std::strerror(errno) + ")");
  return *type;
}

}  // namespace

LineProbeLinks::LineProbeLinks(TracerObject& obj, const std::vector<LineProbe>& probes) {
  int pmu_type = line_kprobe_pmu_type();
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
