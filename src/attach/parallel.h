// Runs a per-index task over [0, n) on a few threads. Attaching and detaching single probes is
// dominated by RCU grace periods, which concurrent waiters share, so overlapping them gives the
// speed-up; the work itself is light.
#pragma once

#include <cstddef>
#include <functional>

namespace retsnoop {

// Every index runs exactly once, whatever happens: when threads cannot be created (a task or
// memory limit) the calling thread does the rest, and a task that throws does not keep the
// others from running. Detaching depends on both: a probe skipped there would stay in the
// kernel. The first exception a task threw is rethrown once all indexes have run.
void parallel_for(size_t n, size_t threads, const std::function<void(size_t)>& task);

}  // namespace retsnoop
