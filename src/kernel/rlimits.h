#pragma once

namespace retsnoop {

// Kernels before 5.11 charge BPF maps against RLIMIT_MEMLOCK, and single kprobes need two file
// descriptors per function: lift both limits as far as we are allowed to.
void raise_rlimits();

}  // namespace retsnoop
