// Whether a process still exists: marker files and kprobe event groups carry the PID of the
// retsnoop that made them, and only those of dead runs may be cleaned up.
#pragma once

#include <signal.h>

#include <cerrno>

namespace retsnoop {

// EPERM means it exists but belongs to someone else: only ESRCH says it is gone.
inline bool process_alive(int pid) { return kill(pid, 0) == 0 || errno != ESRCH; }

}  // namespace retsnoop
