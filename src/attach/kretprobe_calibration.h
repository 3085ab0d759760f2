// Measures the kretprobe IP offset of the running kernel (see src/bpf/kret_calib.bpf.c) by
// probing one syscall of the calling thread for a moment.
#pragma once

namespace retsnoop {

// The stack slot holding the probe above a kretprobe program's frame; -1 when it cannot be
// measured (the kernel refuses kprobes, or no slot matched).
int calibrate_kretprobe_ip_offset();

}  // namespace retsnoop
