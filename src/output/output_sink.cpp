#include "output/output_sink.h"

#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>

namespace retsnoop {

namespace {

void on_interrupt(int) {}

void install_interrupt_handler() {
  struct sigaction sa {};
  sa.sa_handler = on_interrupt;
  sigemptyset(&sa.sa_mask);
  sigaction(OutputSink::interrupt_signal(), &sa, nullptr);
}

// How long abandon() keeps interrupting a writer before leaving it blocked.
constexpr auto kAbandonLimit = std::chrono::seconds(1);
constexpr auto kInterruptPeriod = std::chrono::milliseconds(2);

}  // namespace

// A blocked write() returns EINTR when this signal arrives: its handler does nothing and is
// installed without SA_RESTART. Retsnoop sends it to itself only.
int OutputSink::interrupt_signal() { return SIGRTMIN; }

OutputSink::OutputSink(int fd) : fd_(fd), interactive_(isatty(fd) == 1) {
  install_interrupt_handler();
}

void OutputSink::fail(int err) {
  int none = 0;
  error_.compare_exchange_strong(none, err);
}

bool OutputSink::write(std::string_view text) {
  {
    std::lock_guard lock(writer_mu_);
    writer_ = pthread_self();
    writing_ = true;
  }
  while (!text.empty() && !error_.load() && !abandoned_.load()) {
    ssize_t n = ::write(fd_, text.data(), text.size());
    if (n >= 0)
      text.remove_prefix(size_t(n));
    else if (errno != EINTR)
      fail(errno);
  }
  std::lock_guard lock(writer_mu_);
  writing_ = false;
  return text.empty();
}

bool OutputSink::write_status(std::string_view text) {
  if (failed()) return false;
  pollfd p{fd_, POLLOUT, 0};
  if (poll(&p, 1, 0) != 1 || !(p.revents & POLLOUT)) return false;
  return write(text);
}

void OutputSink::set_wait_ender(std::function<void()> fn) {
  std::lock_guard lock(hook_mu_);
  wait_ender_ = std::move(fn);
}

void OutputSink::end_waits() {
  std::lock_guard lock(hook_mu_);
  if (wait_ender_) wait_ender_();
}

void OutputSink::abandon() {
  end_waits();
  abandoned_ = true;
  // The signal may land just before the writer enters write(): repeat until it has left.
  auto give_up = std::chrono::steady_clock::now() + kAbandonLimit;
  while (std::chrono::steady_clock::now() < give_up) {
    {
      std::lock_guard lock(writer_mu_);
      if (!writing_) return;
      pthread_kill(writer_, interrupt_signal());
    }
    std::this_thread::sleep_for(kInterruptPeriod);
  }
}

bool OutputSink::failed() {
  if (failure_known()) return true;
  pollfd p{fd_, 0, 0};
  if (poll(&p, 1, 0) == 1) {
    if (p.revents & POLLNVAL)
      fail(EBADF);
    else if (p.revents & (POLLERR | POLLHUP))
      fail(EPIPE);
  }
  return error_.load() != 0;
}

std::string OutputSink::failure() const {
  if (int err = error_.load()) return std::strerror(err);
  return abandoned_.load() ? "the reader stopped reading" : "";
}

}  // namespace retsnoop
