#include "kernel/bpf_charge_user.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "util/log.h"

namespace retsnoop {

std::unique_ptr<BpfChargeUser> BpfChargeUser::take(const Features& f) {
  if (f.has(Feature::MemcgAccounting)) return nullptr;
  uid_t saved = getuid();
  if (saved == kUid) return nullptr;
  if (setresuid(kUid, uid_t(-1), uid_t(-1)) != 0) {
    logf(LOG_WARN,
         "cannot charge BPF memory to uid %u (%s): while retsnoop runs, root's other processes "
         "may find their RLIMIT_MEMLOCK used up\n",
         unsigned(kUid), std::strerror(errno));
    return nullptr;
  }
  logf(LOG_INFO, "charging BPF memory to uid %u, not to uid %u's locked memory\n", unsigned(kUid),
       unsigned(saved));
  return std::unique_ptr<BpfChargeUser>(new BpfChargeUser(saved));
}

BpfChargeUser::~BpfChargeUser() {
  if (setresuid(saved_, uid_t(-1), uid_t(-1)) != 0)
    logf(LOG_WARN, "cannot set the real uid back to %u: %s\n", unsigned(saved_),
         std::strerror(errno));
}

}  // namespace retsnoop
