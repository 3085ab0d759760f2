// What the symbolizer worker gives up before it reads a byte of another user's file: root, every
// capability, the gain of new ones, most of its resources, and its link to a parent that died.
#pragma once

#include <sys/types.h>

#include <cstdint>

namespace retsnoop {

// Numeric, never looked up: a static binary cannot rely on the name service, and the test VMs'
// minimal root has no /etc/passwd. 65534 is "nobody" almost everywhere.
constexpr uid_t kWorkerUid = 65534;
constexpr gid_t kWorkerGid = 65534;

// The worker's resource limits. The parent's deadlines catch a hang long before the CPU limit;
// the limit only ends a worker spinning after its parent stopped waiting.
struct WorkerLimits {
  uint64_t address_space = uint64_t(4) << 30;  // ElfFile reads at most 512 MiB of DWARF per file
  uint64_t cpu_seconds = 600;
  uint64_t open_files = 4096;  // each cached file and its debug file, over 512 cached files
};

// Closes every descriptor but keep_fd and the standard ones (those become /dev/null or stay
// closed), drops to kWorkerUid/kWorkerGid with no supplementary groups and no capabilities when
// running as root (else drops every capability it can), sets no_new_privs, undumpable, the
// limits, and SIGKILL on the death of parent_pid; exits if that parent is already gone.
// 0 or -errno; the caller must not read anything after a failure.
int enter_worker_sandbox(int keep_fd, pid_t parent_pid, const WorkerLimits& limits = {});

}  // namespace retsnoop
