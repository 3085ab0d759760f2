// Who reported a session: the host name, kernel release and boot id that let a log store tell
// hosts, kernels and reboots apart when it gathers sessions from many machines.
#pragma once

#include <string>

namespace retsnoop {

struct HostIdentity {
  std::string host;
  std::string kernel_release;
  std::string boot_id;  // changes at every boot; empty when proc_root has none
};

// uname() for the name and release; the boot id from <proc_root>/sys/kernel/random/boot_id.
HostIdentity read_host_identity(const std::string& proc_root = "/proc");

}  // namespace retsnoop
