#include "discovery/host_identity.h"

#include <sys/utsname.h>

#include <fstream>

namespace retsnoop {

HostIdentity read_host_identity(const std::string& proc_root) {
  HostIdentity id;
  utsname u{};
  if (uname(&u) == 0) {
    id.host = u.nodename;
    id.kernel_release = u.release;
  }
  std::ifstream boot_id(proc_root + "/sys/kernel/random/boot_id");
  std::getline(boot_id, id.boot_id);
  return id;
}

}  // namespace retsnoop
