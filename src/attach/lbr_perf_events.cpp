#include "attach/lbr_perf_events.h"

#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>

#include "attach/online_cpus.h"
#include "util/errno_names.h"

namespace retsnoop {

namespace {

constexpr const char* kNoPmu = "this CPU has no branch-stack PMU, as is usual in virtual machines";

int open_cpu_event(perf_event_attr& attr, int cpu) {
  return static_cast<int>(syscall(SYS_perf_event_open, &attr, -1 /* every task */, cpu,
                                  -1 /* no group */, PERF_FLAG_FD_CLOEXEC));
}

}  // namespace

LbrPerfEvents::LbrPerfEvents(uint64_t branch_types) {
  perf_event_attr attr = lbr_event_attr(branch_types);
  std::vector<int> cpus = online_cpus();
  events_.reserve(cpus.size());
  for (int cpu : cpus) {
    int fd = open_cpu_event(attr, cpu);
    if (fd < 0) {
      int err = errno;
      throw lbr_unavailable(lbr_open_failure_reason(err, branch_types == 0) +
                            " (perf_event_open on CPU " + std::to_string(cpu) + ": " +
                            errno_text(err) + ")");
    }
    events_.emplace_back(fd);
  }
}

perf_event_attr lbr_event_attr(uint64_t branch_types) {
  perf_event_attr attr{};
  attr.size = sizeof(attr);
  // Any hardware event carries a branch stack; cycles is the one every PMU has.
  attr.type = PERF_TYPE_HARDWARE;
  attr.config = PERF_COUNT_HW_CPU_CYCLES;
  attr.sample_type = PERF_SAMPLE_BRANCH_STACK;
  // The privilege level here is what programs the recorder's filter: kernel branches only, so
  // user-space code running between two traced calls does not push kernel records out.
  attr.branch_sample_type =
      PERF_SAMPLE_BRANCH_KERNEL | (branch_types ? branch_types : kDefaultLbrBranchTypes);
  return attr;
}

std::string lbr_open_failure_reason(int err, bool default_types) {
  switch (err) {
    case EACCES:
    case EPERM: return "not permitted to open CPU-wide perf events (needs root or CAP_PERFMON)";
    case ENOENT:  // no PMU for hardware events at all: the filter was never looked at
      return kNoPmu;
    case EOPNOTSUPP:
    case EINVAL:
      if (default_types) return kNoPmu;
      return "this CPU has no branch-stack PMU (as is usual in virtual machines) or cannot "
             "record the branch types of this --lbr SPEC";
    case EBUSY: return "the CPU's branch recorder is taken by another perf user";
    default: return "cannot start branch recording";
  }
}

LbrUnavailable lbr_unavailable(const std::string& reason) {
  return LbrUnavailable("LBR is unavailable: " + reason);
}

}  // namespace retsnoop
