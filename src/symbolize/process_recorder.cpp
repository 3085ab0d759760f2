#include "symbolize/process_recorder.h"

#include <algorithm>
#include <system_error>

#include "symbolize/process_start.h"
#include "util/error.h"
#include "util/log.h"

namespace retsnoop {

ProcessRecorder::ProcessRecorder(ProcessSymbolizer& symbols) : symbols_(symbols) {
  try {
    thread_ = std::thread([this] { run(); });
  } catch (const std::system_error& e) {
    throw UserError(
        std::string("cannot start the process recorder thread: ") + e.what(),
        "A task limit (systemd TasksMax, cgroup pids.max) leaves retsnoop too few threads.");
  }
}

ProcessRecorder::~ProcessRecorder() {
  if (thread_.joinable() && !stop(Clock::now() + kWaitLimit)) thread_.detach();
}

void ProcessRecorder::record(uint32_t pid, uint64_t session_id) {
  std::optional<uint64_t> start_time = process_start_time(pid);
  if (!start_time) {
    logf(LOG_DEBUG, "PID %u was gone when its announcement was read: its user stacks stay raw\n",
         pid);
    return;
  }
  std::unique_lock lock(mu_);
  if (stopping_) return;
  if (queue_.size() >= kMaxQueued) {
    ++dropped_;
    return;
  }
  queue_.push_back({pid, session_id, *start_time});
  lock.unlock();
  wake_.notify_one();
}

bool ProcessRecorder::pending(uint32_t pid, uint64_t session_id, Clock::time_point now) const {
  auto mine = [&](const Request& r) { return r.pid == pid && r.session_id <= session_id; };
  if (busy_ && mine(current_) && now - current_since_ < kWaitLimit) return true;
  return std::any_of(queue_.begin(), queue_.end(), mine);
}

// Each wait is bounded by the start of the recording it waits for: a stuck one is waited on
// kWaitLimit once, not once per session.
void ProcessRecorder::wait_for(uint32_t pid, uint64_t session_id) {
  std::unique_lock lock(mu_);
  while (!exited_ && pending(pid, session_id, Clock::now())) {
    auto until = busy_ ? current_since_ + kWaitLimit : Clock::now() + kWaitLimit;
    done_.wait_until(lock, until);
  }
}

bool ProcessRecorder::stop(Clock::time_point deadline) {
  std::unique_lock lock(mu_);
  stopping_ = true;
  queue_.clear();
  wake_.notify_one();
  done_.notify_all();
  if (!done_.wait_until(lock, deadline, [&] { return exited_; })) return false;
  lock.unlock();
  if (thread_.joinable()) thread_.join();
  return true;
}

uint64_t ProcessRecorder::dropped() const {
  std::lock_guard lock(mu_);
  return dropped_;
}

void ProcessRecorder::run() {
  std::unique_lock lock(mu_);
  for (;;) {
    wake_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
    if (stopping_) break;
    current_ = queue_.front();
    queue_.pop_front();
    busy_ = true;
    current_since_ = Clock::now();
    lock.unlock();
    // An exception must not leave the thread (that would end the process with probes attached):
    // the process's stacks stay raw.
    try {
      symbols_.record_process(current_.pid, current_.session_id, current_.start_time);
    } catch (const std::exception& e) {
      logf(LOG_DEBUG, "PID %u: cannot record its memory map: %s\n", current_.pid, e.what());
    }
    lock.lock();
    busy_ = false;
    done_.notify_all();
  }
  exited_ = true;
  done_.notify_all();
}

}  // namespace retsnoop
