// What retsnoop runs that died (SIGKILL, OOM kill, a crash) left in the kernel: their tracefs
// kprobe events and their share of a flipped knob. Every run, a dry run included, removes them
// before it does anything else, and says so in one line each.
#pragma once

#include <optional>

#include "attach/run_registry.h"

namespace retsnoop {

// Removes the kprobe events of dead runs and sets back the knobs they held. Events of runs this
// system's state directory does not know (another mount namespace's /run) are left alone with a
// -v note: nothing here can tell whether their run is alive. dir: nullopt when there is no
// state directory (no run ever registered here). false when the directory stayed locked by
// another process (a warning says so): nothing was removed, and the run goes on without it.
bool remove_leftovers(const std::optional<RunStateDir>& dir);

}  // namespace retsnoop
