#include "app/rlimits.h"

#include <sys/resource.h>

#include "util/log.h"

namespace retsnoop {

void raise_rlimits() {
  rlimit unlimited{RLIM_INFINITY, RLIM_INFINITY};
  if (setrlimit(RLIMIT_MEMLOCK, &unlimited)) logf(LOG_DEBUG, "cannot raise RLIMIT_MEMLOCK\n");
  rlimit files{};
  if (getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < files.rlim_max) {
    files.rlim_cur = files.rlim_max;
    if (setrlimit(RLIMIT_NOFILE, &files)) logf(LOG_DEBUG, "cannot raise RLIMIT_NOFILE\n");
  }
}

}  // namespace retsnoop
