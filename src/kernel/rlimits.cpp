#include "kernel/rlimits.h"

#include <sys/resource.h>

#include <algorithm>
#include <fstream>

#include "util/log.h"

namespace retsnoop {

namespace {

// The most file descriptors a process may have at all (fs.nr_open).
rlim_t kernel_fd_ceiling() {
  unsigned long long n = 0;
  std::ifstream("/proc/sys/fs/nr_open") >> n;
  return n;
}

}  // namespace

void raise_rlimits() {
  rlimit unlimited{RLIM_INFINITY, RLIM_INFINITY};
  if (setrlimit(RLIMIT_MEMLOCK, &unlimited)) logf(LOG_DEBUG, "cannot raise RLIMIT_MEMLOCK\n");
  // Ten thousand single kprobes hold 40,000 descriptors: raise the hard limit too when allowed
  // (CAP_SYS_RESOURCE), else the soft one as far as the hard one goes.
  rlimit files{};
  if (getrlimit(RLIMIT_NOFILE, &files)) return;
  rlim_t ceiling = kernel_fd_ceiling();
  rlimit wanted{std::max(files.rlim_max, ceiling), std::max(files.rlim_max, ceiling)};
  if (setrlimit(RLIMIT_NOFILE, &wanted) == 0) return;
  files.rlim_cur = files.rlim_max;
  if (setrlimit(RLIMIT_NOFILE, &files)) logf(LOG_DEBUG, "cannot raise RLIMIT_NOFILE\n");
}

}  // namespace retsnoop
