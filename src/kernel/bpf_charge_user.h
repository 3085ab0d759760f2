// Whose locked memory retsnoop's BPF objects count against. Kernels before 5.11 charge maps and
// programs to the real user of the process that creates them (its locked_vm) and check the sum
// against that process's RLIMIT_MEMLOCK: retsnoop's megabytes, charged to root, would push every
// other root process past its default 64 KiB, and a program under test would fail to load a map
// only because retsnoop runs. While retsnoop creates its objects its real uid is one of its own;
// the effective and saved uids stay 0, so no capability is lost, and each object is uncharged
// from the user it was charged to whenever it goes. Newer kernels charge memory cgroups instead,
// where none of this applies.
#pragma once

#include <sys/types.h>

#include <memory>

#include "kernel/features.h"

namespace retsnoop {

class BpfChargeUser {
 public:
  // In Debian's range of uids that no package or user is given (65000-65533): a process of that
  // uid could signal retsnoop while it attaches, and only root can become it.
  static constexpr uid_t kUid = 65533;

  // Switches the real uid where the kernel charges BPF memory per user; else holds nothing. A
  // switch the kernel refuses is a warning: the run goes on, charging root.
  static std::unique_ptr<BpfChargeUser> take(const Features& f);
  // Back to the real uid retsnoop started with.
  ~BpfChargeUser();
  BpfChargeUser(const BpfChargeUser&) = delete;
  BpfChargeUser& operator=(const BpfChargeUser&) = delete;

 private:
  explicit BpfChargeUser(uid_t saved) : saved_(saved) {}
  uid_t saved_;
};

}  // namespace retsnoop
