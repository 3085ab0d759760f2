#include "symbolize/worker_sandbox.h"

#include <dirent.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/capability.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <vector>

#include "symbolize/worker_seccomp.h"

namespace retsnoop {

namespace {

// Sanitizers reserve terabytes of shadow memory: an address-space limit breaks their builds.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kLimitAddressSpace = false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
constexpr bool kLimitAddressSpace = false;
#else
constexpr bool kLimitAddressSpace = true;
#endif
#else
constexpr bool kLimitAddressSpace = true;
#endif

// Through /proc/self/fd when mounted, else every number below the descriptor limit.
void close_other_fds(int keep_fd) {
  std::vector<int> fds;
  if (DIR* d = opendir("/proc/self/fd")) {
    int own = dirfd(d);
    while (dirent* e = readdir(d)) {
      int fd = std::atoi(e->d_name);
      if (e->d_name[0] != '.' && fd > 2 && fd != keep_fd && fd != own) fds.push_back(fd);
    }
    closedir(d);
  } else {
    long max = sysconf(_SC_OPEN_MAX);
    for (int fd = 3; fd < (max > 0 && max < 65536 ? max : 65536); ++fd)
      if (fd != keep_fd) fds.push_back(fd);
  }
  for (int fd : fds) close(fd);
}

int set_limit(int resource, uint64_t value) {
  rlimit r{value, value};
  return setrlimit(resource, &r) ? -errno : 0;
}

int set_limits(const WorkerLimits& limits) {
  int err = 0;
  if (kLimitAddressSpace && (err = set_limit(RLIMIT_AS, limits.address_space))) return err;
  if ((err = set_limit(RLIMIT_CPU, limits.cpu_seconds))) return err;
  if ((err = set_limit(RLIMIT_NOFILE, limits.open_files))) return err;
  if ((err = set_limit(RLIMIT_CORE, 0))) return err;   // no core of another user's data
  if ((err = set_limit(RLIMIT_FSIZE, 0))) return err;  // it writes no file
  return set_limit(RLIMIT_NPROC, 0);                   // nor starts any process
}

// No network device but a down loopback, no System V IPC object of the host's. Only while
// privileged: it needs CAP_SYS_ADMIN.
int isolate_namespaces() { return unshare(CLONE_NEWNET | CLONE_NEWIPC) ? -errno : 0; }

// With no_new_privs nothing can raise a capability again; an empty bounding set also holds if
// that were ever undone. Only while privileged: it needs CAP_SETPCAP.
int empty_bounding_set() {
  for (int cap = 0; prctl(PR_CAPBSET_READ, cap, 0, 0, 0) >= 0; ++cap)
    if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0)) return -errno;
  return 0;
}

// Root gives up its identity; a non-root user with capabilities (CAP_BPF, CAP_PERFMON) cannot
// change its uid, and loses the capabilities instead.
int drop_identity() {
  if (geteuid() == 0) {
    uint32_t id = worker_id(getpid());
    if (setgroups(0, nullptr) || setresgid(id, id, id) || setresuid(id, id, id)) return -errno;
  }
  __user_cap_header_struct hdr{_LINUX_CAPABILITY_VERSION_3, 0};
  __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3] = {};
  if (syscall(SYS_capset, &hdr, data)) return -errno;
  prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
  return 0;
}

// /dev/null on the standard descriptors: the worker writes nothing, and a descriptor number the
// parent's terminal held must not be reused by a file it receives.
void null_stdio() {
  int null = open("/dev/null", O_RDWR | O_CLOEXEC);
  for (int fd = 0; fd <= 2; ++fd) {
    if (null >= 0)
      dup2(null, fd);
    else
      close(fd);
  }
  if (null > 2) close(null);
}

}  // namespace

int enter_worker_sandbox(int keep_fd, pid_t parent_pid, SandboxGaps& gaps,
                         const WorkerLimits& limits) {
  close_other_fds(keep_fd);
  null_stdio();
  gaps.namespaces = isolate_namespaces();
  gaps.bounding_set = empty_bounding_set();
  if (int err = drop_identity()) return err;
  // After the identity change, which clears the parent-death signal.
  if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0)) return -errno;
  if (getppid() != parent_pid) _exit(0);
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)) return -errno;
  // Another process of the same uid must not ptrace it to read the files it was handed.
  if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)) return -errno;
  if (int err = set_limits(limits)) return err;
  return install_worker_seccomp();
}

}  // namespace retsnoop
