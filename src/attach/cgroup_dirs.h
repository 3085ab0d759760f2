// --cgroup and --no-cgroup: the cgroup-v2 directories, opened for the BPF cgroup array that
// bpf_current_task_under_cgroup() checks tasks against.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "util/owned_fd.h"

namespace retsnoop {

struct CgroupDir {
  OwnedFd fd;
  std::string path;
  uint64_t id = 0;  // the cgroup id: its directory's inode number in cgroup2fs
};

struct CgroupDirs {
  std::vector<CgroupDir> dirs;  // --cgroup ones first, then --no-cgroup ones
  uint32_t allowed = 0;         // how many of them came from --cgroup
};

// Throws UserError for a path that is not a cgroup-v2 directory, or too many of them.
CgroupDirs open_cgroup_dirs(const std::vector<std::string>& allow,
                            const std::vector<std::string>& deny);

}  // namespace retsnoop
