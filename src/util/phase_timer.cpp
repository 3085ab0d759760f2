#include "util/phase_timer.h"

#include "util/log.h"

namespace retsnoop {

PhaseTimer::~PhaseTimer() {
  auto us = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() -
                                                                  start_);
  logf(LOG_DEBUG, "phase %s: %.1f ms\n", name_, us.count() / 1000.0);
}

}  // namespace retsnoop
