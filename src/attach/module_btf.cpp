#include "attach/module_btf.h"

#include <bpf/bpf.h>
#include <linux/bpf.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "util/log.h"

namespace retsnoop {

namespace {

// The kernel names each BTF object after its module ("vmlinux" for the kernel's own).
std::string btf_object_name(int fd) {
  char name[64] = {};
  bpf_btf_info info{};
  info.name = reinterpret_cast<uintptr_t>(name);
  info.name_len = sizeof(name);
  uint32_t len = sizeof(info);
  if (bpf_obj_get_info_by_fd(fd, &info, &len)) return {};
  name[sizeof(name) - 1] = '\0';
  return name;
}

}  // namespace

ModuleBtfs::ModuleBtfs(const std::set<std::string>& modules) {
  uint32_t id = 0;
  while (fds_.size() < modules.size() && bpf_btf_get_next_id(id, &id) == 0) {
    OwnedFd fd(bpf_btf_get_fd_by_id(id));
    if (!fd) {
      // Gone since the id was listed (module unloaded): not ours to worry about.
      logf(LOG_DEBUG, "BTF object %u: cannot open: %s\n", id, std::strerror(errno));
      continue;
    }
    std::string name = btf_object_name(fd.get());
    if (modules.count(name)) fds_.emplace(name, std::move(fd));
  }
}

int ModuleBtfs::fd(const std::string& module) const {
  auto it = fds_.find(module);
  return it == fds_.end() ? -1 : it->second.get();
}

}  // namespace retsnoop
