// SIGINT/SIGTERM delivered through a signalfd instead of a handler: no global flag, and every
// thread (attach workers included) can ask whether a stop was requested.
#pragma once

#include <atomic>

namespace retsnoop {

class StopSignal {
 public:
  // Blocks SIGINT and SIGTERM in the calling thread (threads started later inherit the mask).
  StopSignal();
  ~StopSignal();
  StopSignal(const StopSignal&) = delete;
  StopSignal& operator=(const StopSignal&) = delete;

  // True once either signal arrived; never blocks.
  bool requested();
  int fd() const { return fd_; }

 private:
  int fd_ = -1;
  std::atomic<bool> seen_{false};
};

}  // namespace retsnoop
