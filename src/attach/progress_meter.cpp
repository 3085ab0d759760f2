#include "attach/progress_meter.h"

#include <unistd.h>

#include <condition_variable>
#include <mutex>
#include <system_error>

namespace retsnoop {

namespace {

constexpr const char* kEraseToEol = "\033[K";

}  // namespace

ProgressDisplay ProgressDisplay::stderr_if_terminal() {
  ProgressDisplay d;
  if (isatty(STDERR_FILENO)) d.fd = STDERR_FILENO;
  return d;
}

ProgressMeter::ProgressMeter(std::string label, size_t total, Finish finish,
                             ProgressDisplay display)
    : label_(std::move(label)), total_(total), finish_(finish), display_(display) {
  if (display_.fd < 0) return;
  // A progress display is no reason to fail, least of all while detaching at a task limit.
  try {
    thread_ = std::jthread([this](std::stop_token st) { display_loop(std::move(st)); });
  } catch (const std::system_error&) {
  }
}

ProgressMeter::~ProgressMeter() {
  if (!thread_.joinable()) return;
  thread_.request_stop();
  thread_.join();
  if (shown_) draw(finish_ == Finish::KeepLabel ? label_ : std::string());
}

void ProgressMeter::display_loop(std::stop_token stop) {
  std::mutex mu;
  std::condition_variable_any cv;
  std::unique_lock lock(mu);
  // Nobody notifies: the wait ends on the timeout or, early, on the stop request.
  auto wait = [&](std::chrono::milliseconds d) {
    cv.wait_for(lock, stop, d, [] { return false; });
    return !stop.stop_requested();
  };
  if (!wait(display_.delay)) return;
  do {
    shown_ = true;
    draw(label_ + std::to_string(done()) + "/" + std::to_string(total_));
  } while (wait(display_.period));
}

void ProgressMeter::draw(const std::string& text) const {
  std::string line = "\r" + text + kEraseToEol;
  // Best effort: a progress line that cannot be written is no reason to fail.
  [[maybe_unused]] ssize_t n = write(display_.fd, line.data(), line.size());
}

}  // namespace retsnoop
