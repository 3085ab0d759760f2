#include "symbolize/worker_seccomp.h"

#include <fcntl.h>
#include <seccomp.h>
#include <sys/mman.h>

#include <cerrno>
#include <memory>

namespace retsnoop {

namespace {

// By name: libseccomp maps each to the build architecture's number, and skips names the
// architecture lacks (pause on arm64, whose glibc waits with rt_sigsuspend, for instance).
constexpr const char* kAllowed[] = {
    // Reading the descriptors it was handed, and talking to its parent.
    "read", "pread64", "readv", "lseek", "fstat", "newfstatat", "statx", "close", "recvmsg",
    "sendmsg", "write",
    // Memory: malloc, and libelf's reads of whole sections.
    "brk", "munmap", "mremap", "madvise",
    // abort() of a test build's crash request, and the parent's SIGKILL.
    "getpid", "gettid", "tgkill", "rt_sigprocmask", "rt_sigaction", "rt_sigreturn",
    // A test build's hang request, the C++ runtime's locks, and ending (the sanitizers' runtime
    // checks its signal stack as a process exits).
    "pause", "rt_sigsuspend", "futex", "clock_gettime", "getrandom", "sigaltstack", "exit",
    "exit_group",
    // glibc's qsort() asks for the memory size (sysconf(_SC_PHYS_PAGES)) before it sorts a large
    // array, as libdw does a large line table.
    "sysinfo"};

// Files come from the parent only: a path libdw asks for (an alternate debug file, split DWARF,
// the realpath of a descriptor) is refused, and libdw does without.
constexpr const char* kRefused[] = {"open", "openat", "openat2", "readlink",  "readlinkat",
                                    "stat", "lstat",  "access",  "faccessat", "faccessat2"};

struct CtxRelease {
  void operator()(scmp_filter_ctx ctx) const { seccomp_release(ctx); }
};

// A name this architecture has no call for resolves to a negative pseudo number: nothing to add.
int add(scmp_filter_ctx ctx, uint32_t action, const char* name) {
  int nr = seccomp_syscall_resolve_name(name);
  if (nr < 0) return 0;
  return seccomp_rule_add(ctx, action, nr, 0);
}

// Mappings and protection changes only without PROT_EXEC: no code of a file's making runs.
int add_no_exec(scmp_filter_ctx ctx, const char* name) {
  int nr = seccomp_syscall_resolve_name(name);
  return seccomp_rule_add(ctx, SCMP_ACT_ALLOW, nr, 1, SCMP_A2(SCMP_CMP_MASKED_EQ, PROT_EXEC, 0));
}

// libelf checks a descriptor with F_GETFD before it reads it; no other fcntl() command.
int add_fd_check(scmp_filter_ctx ctx) {
  int nr = seccomp_syscall_resolve_name("fcntl");
  return seccomp_rule_add(ctx, SCMP_ACT_ALLOW, nr, 1, SCMP_A1(SCMP_CMP_EQ, F_GETFD));
}

}  // namespace

int install_worker_seccomp() {
  std::unique_ptr<void, CtxRelease> ctx(seccomp_init(SCMP_ACT_KILL_PROCESS));
  if (!ctx) return -ENOMEM;
  int err = 0;
  for (const char* name : kAllowed)
    if ((err = add(ctx.get(), SCMP_ACT_ALLOW, name))) return err;
  for (const char* name : kRefused)
    if ((err = add(ctx.get(), SCMP_ACT_ERRNO(EACCES), name))) return err;
  if ((err = add_no_exec(ctx.get(), "mmap")) || (err = add_no_exec(ctx.get(), "mprotect")) ||
      (err = add_fd_check(ctx.get())))
    return err;
  return seccomp_load(ctx.get());
}

}  // namespace retsnoop
