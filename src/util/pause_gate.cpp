#include "util/pause_gate.h"

namespace retsnoop {

void PauseGate::checkpoint() {
  std::unique_lock lock(mu_);
  cv_.wait(lock, [this] { return !paused_; });
}

void PauseGate::set(bool paused) {
  {
    std::lock_guard lock(mu_);
    paused_ = paused;
  }
  cv_.notify_all();
}

}  // namespace retsnoop
