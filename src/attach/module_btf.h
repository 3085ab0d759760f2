// BTF objects of loaded kernel modules, by module name. An fentry program for a module function
// names its target by BTF id within the module's BTF object, which it must hold open.
#pragma once

#include <map>
#include <set>
#include <string>

#include "util/owned_fd.h"

namespace retsnoop {

class ModuleBtfs {
 public:
  // Opens the BTF objects of these modules; the kernel's others are closed at once.
  explicit ModuleBtfs(const std::set<std::string>& modules);
  // The BTF object fd of module, -1 when the kernel has none (module without BTF, unloaded).
  int fd(const std::string& module) const;

 private:
  std::map<std::string, OwnedFd> fds_;
};

}  // namespace retsnoop
