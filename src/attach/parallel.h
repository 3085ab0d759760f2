// Runs a per-index task over [0, n) on a few threads. Attaching and detaching single probes is
// dominated by RCU grace periods, which concurrent waiters share, so overlapping them gives the
// speed-up; the work itself is light.
#pragma once

#include <cstddef>
#include <functional>

namespace retsnoop {

void parallel_for(size_t n, size_t threads, const std::function<void(size_t)>& task);

}  // namespace retsnoop
