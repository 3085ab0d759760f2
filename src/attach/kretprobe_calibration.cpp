#include "attach/kretprobe_calibration.h"

#include <bpf/libbpf.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <memory>

#include "attach/link_ptr.h"
#include "rs_kret_calib.skel.h"
#include "util/log.h"

namespace retsnoop {

namespace {

// A syscall nobody minds being probed for a moment, which this thread can make at will.
constexpr const char* kCalibrationTarget = "__x64_sys_getppid";

struct SkelDeleter {
  void operator()(rs_kret_calib* s) const { rs_kret_calib__destroy(s); }
};

}  // namespace

int calibrate_kretprobe_ip_offset() {
  std::unique_ptr<rs_kret_calib, SkelDeleter> skel(rs_kret_calib__open());
  if (!skel) return -1;
  skel->rodata->calib_tid = gettid();
  if (rs_kret_calib__load(skel.get())) return -1;
  LinkPtr entry(bpf_program__attach_kprobe(skel->progs.rs_calib_entry, false, kCalibrationTarget));
  LinkPtr exit(bpf_program__attach_kprobe(skel->progs.rs_calib_exit, true, kCalibrationTarget));
  if (!entry || !exit) {
    logf(LOG_DEBUG, "kretprobe IP offset: cannot probe %s\n", kCalibrationTarget);
    return -1;
  }
  syscall(SYS_getppid);
  int slot = skel->bss->ip_slot;
  return slot > 0 ? slot : -1;
}

}  // namespace retsnoop
