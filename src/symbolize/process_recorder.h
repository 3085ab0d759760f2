// -U: each process's memory map is read, and its files opened, on a thread of its own. Opening a
// file blocks for as long as whoever serves it wishes (a FUSE server run by the traced user):
// on the thread that receives sessions, that would hold up a stop request and the detach behind
// it. The printer waits a bounded time for the map a session needs.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <thread>

#include "symbolize/user_symbolizer.h"

namespace retsnoop {

class ProcessRecorder {
 public:
  using Clock = std::chrono::steady_clock;

  // Longest wait_for() waits on one recording: past it, that process's stacks are printed with
  // what is known (addresses, or an earlier map).
  static constexpr auto kWaitLimit = std::chrono::seconds(1);
  // Recordings queued at most; beyond, a process is not recorded (its stacks stay raw).
  static constexpr size_t kMaxQueued = 4096;

  // Throws UserError when the thread cannot be started.
  explicit ProcessRecorder(ProcessSymbolizer& symbols);
  // Stops the thread (stop(), kWaitLimit) if not done yet; a thread still stuck is left to the
  // end of the process.
  ~ProcessRecorder();
  ProcessRecorder(const ProcessRecorder&) = delete;
  ProcessRecorder& operator=(const ProcessRecorder&) = delete;

  // ProcessSymbolizer::record_process(pid, session_id), on the recorder thread; never blocks
  // (procfs's stat is read at once, which no other user can hold up). The process's start time
  // is taken now, at first sight: a process found with another one when its map is read took
  // the PID since, and is not recorded.
  void record(uint32_t pid, uint64_t session_id);
  // Waits while a recording of pid for session_id or before is queued or running, at most
  // kWaitLimit per recording.
  void wait_for(uint32_t pid, uint64_t session_id);
  // Drops what is queued and ends the thread, waiting until deadline; false when the thread is
  // still stuck in a recording, which then keeps using the symbolizer: the process must end
  // without destroying it.
  bool stop(Clock::time_point deadline);
  // Recordings dropped because the queue was full.
  uint64_t dropped() const;

 private:
  struct Request {
    uint32_t pid;
    uint64_t session_id;
    uint64_t start_time;
  };
  void run();
  bool pending(uint32_t pid, uint64_t session_id, Clock::time_point now) const;  // mu_ held

  ProcessSymbolizer& symbols_;
  mutable std::mutex mu_;
  std::condition_variable wake_;  // the thread: work or stop
  std::condition_variable done_;  // waiters: a recording ended, or the thread did
  std::deque<Request> queue_;
  bool busy_ = false;  // current_ is being recorded
  Request current_{};
  Clock::time_point current_since_;
  bool stopping_ = false;
  bool exited_ = false;
  uint64_t dropped_ = 0;
  std::thread thread_;
};

}  // namespace retsnoop
