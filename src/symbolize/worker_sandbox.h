// What the symbolizer worker gives up before it reads a byte of another user's file: root, every
// capability, the gain of new ones, the network, most of its resources, most system calls, and
// its link to a parent that died.
#pragma once

#include <sys/types.h>

#include <cstdint>

namespace retsnoop {

// The worker runs as uid and gid kWorkerIdBase + its own pid: an identity no other process shares
// (a pid is unique among live processes), so none can signal it or read its /proc files, and that
// owns no file (the worker creates none). Numeric and never looked up: a static binary cannot rely
// on the name service. The range, up to the largest pid_max (2^22) above the base, lies in
// 1879048192-2147352575, which systemd's table of uid ranges leaves to no one: no passwd entry,
// dynamic service user or container mapping is placed there.
constexpr uint32_t kWorkerIdBase = 0x7c000000;
constexpr uid_t worker_id(pid_t worker_pid) { return kWorkerIdBase + uint32_t(worker_pid); }

// The worker's resource limits. The parent's deadlines catch a hang long before the CPU limit;
// the limit only ends a worker spinning after its parent stopped waiting.
struct WorkerLimits {
  uint64_t address_space = uint64_t(4) << 30;  // ElfFile reads at most 512 MiB of DWARF per file
  uint64_t cpu_seconds = 600;
  uint64_t open_files = 4096;  // each cached file and its debug file, over 512 cached files
};

// Steps the kernel or a service manager may refuse, which the worker goes without: -errno of
// each, 0 when done.
struct SandboxGaps {
  int namespaces = 0;    // new network and IPC namespaces: needs CAP_SYS_ADMIN, and a seccomp
                         // filter such as systemd's RestrictNamespaces= may forbid them
  int bounding_set = 0;  // the capability bounding set emptied: needs CAP_SETPCAP
};

// Closes every descriptor but keep_fd and the standard ones (those become /dev/null or stay
// closed), enters new network and IPC namespaces and empties the capability bounding set where it
// can (gaps says where it could not), drops to worker_id() with no supplementary groups and no
// capabilities when running as root (else drops every capability it can), sets no_new_privs,
// undumpable, the limits, and SIGKILL on the death of parent_pid, and installs the system call
// filter (worker_seccomp.h); exits if that parent is already gone. 0 or -errno; the caller must
// not read anything after a failure.
int enter_worker_sandbox(int keep_fd, pid_t parent_pid, SandboxGaps& gaps,
                         const WorkerLimits& limits = {});

}  // namespace retsnoop
