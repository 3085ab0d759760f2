// Stop requests delivered through a signalfd instead of a handler: no global flag, and every
// thread (attach workers included) can ask whether a stop was requested. Every signal whose
// default action ends the process stops it this way instead, with its probes detached: SIGINT
// and SIGTERM are the user's way to stop; SIGHUP (terminal or ssh connection gone), SIGQUIT,
// SIGXFSZ (output to a file past `ulimit -f`), SIGXCPU (past `ulimit -t`), the timer signals,
// SIGUSR1/2 sent by mistake and the real-time ones would otherwise leave probes in the kernel;
// the exit status says which signal it was. The signals of faults (SIGSEGV, SIGBUS, SIGILL,
// SIGFPE, SIGABRT, SIGTRAP, SIGSYS) are not among them: after a real fault the process cannot go
// on, and the kernel forces those through any mask anyway.
#pragma once

#include <signal.h>
#include <sys/signalfd.h>
#include <sys/types.h>

#include <atomic>
#include <vector>

namespace retsnoop {

class StopSignal {
 public:
  // Blocks the stop signals in the calling thread (threads started later inherit the mask);
  // the destructor restores the mask it found.
  StopSignal();
  ~StopSignal();
  StopSignal(const StopSignal&) = delete;
  StopSignal& operator=(const StopSignal&) = delete;

  // The signals that stop a run.
  static std::vector<int> signals();
  // Command mode: the first SIGINT is the command's (Ctrl-C reaches the whole foreground process
  // group), and retsnoop waits for the command to end; a second one stops retsnoop too. A SIGINT
  // sent to retsnoop alone (kill), or any when the command has a session of its own (which the
  // terminal's Ctrl-C does not reach), is passed on to the command.
  void spare_first_interrupt(pid_t command, bool own_session = false);
  // True once a stop signal arrived; never blocks.
  bool requested();
  // Whether spare_first_interrupt()'s SIGINT came: the command was interrupted.
  bool interrupt_spared() const { return interrupt_spared_.load(); }
  // The first stop signal that arrived; 0 before any.
  int signal_number() const { return signo_.load(); }
  int fd() const { return fd_; }

 private:
  int fd_ = -1;
  bool spares(const signalfd_siginfo& info);

  std::atomic<int> signo_{0};
  std::atomic<pid_t> command_{0};
  std::atomic<bool> command_own_session_{false};
  std::atomic<bool> interrupt_spared_{false};
  std::vector<int> signals_;
  std::vector<struct sigaction> saved_;  // the dispositions before, restored at destruction
  sigset_t saved_mask_{};
};

}  // namespace retsnoop
