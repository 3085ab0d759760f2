// Stop requests delivered through a signalfd instead of a handler: no global flag, and every
// thread (attach workers included) can ask whether a stop was requested. SIGINT and SIGTERM are
// the user's way to stop; SIGHUP (terminal or ssh connection gone) and SIGQUIT would kill the
// process with probes attached, so they stop it the same way, and the exit status says which.
#pragma once

#include <signal.h>
#include <sys/signalfd.h>
#include <sys/types.h>

#include <atomic>

namespace retsnoop {

class StopSignal {
 public:
  // Blocks the stop signals in the calling thread (threads started later inherit the mask).
  StopSignal();
  ~StopSignal();
  StopSignal(const StopSignal&) = delete;
  StopSignal& operator=(const StopSignal&) = delete;

  // Command mode: the first SIGINT is the command's (Ctrl-C reaches the whole foreground process
  // group), and retsnoop waits for the command to end; a second one stops retsnoop too. A SIGINT
  // sent to retsnoop alone (kill) is passed on to the command.
  void spare_first_interrupt(pid_t command);
  // True once a stop signal arrived; never blocks.
  bool requested();
  // The first stop signal that arrived; 0 before any.
  int signal_number() const { return signo_.load(); }
  int fd() const { return fd_; }

 private:
  int fd_ = -1;
  bool spares(const signalfd_siginfo& info);

  std::atomic<int> signo_{0};
  std::atomic<pid_t> command_{0};
  std::atomic<bool> interrupt_spared_{false};
  struct sigaction saved_[4];  // the dispositions before, restored at destruction
};

}  // namespace retsnoop
