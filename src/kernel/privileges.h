#pragma once

namespace retsnoop {

// Throws UserError with one clear line when the process can neither load BPF programs nor read
// kernel addresses: root, or CAP_BPF with CAP_PERFMON (CAP_SYS_ADMIN on older kernels), is needed.
void check_privileges();

}  // namespace retsnoop
