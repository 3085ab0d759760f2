#include "app/stop_signal.h"

#include <signal.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "output/output_sink.h"
#include "util/error.h"

namespace retsnoop {

namespace {

sigset_t signal_set(const std::vector<int>& signals) {
  sigset_t set;
  sigemptyset(&set);
  for (int sig : signals) sigaddset(&set, sig);
  return set;
}

void ignore_delivery(int) {}

}  // namespace

std::vector<int> StopSignal::signals() {
  std::vector<int> sigs = {SIGINT,    SIGTERM, SIGHUP,  SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM,
                           SIGVTALRM, SIGPROF, SIGXFSZ, SIGXCPU, SIGIO,   SIGPWR};
#ifdef SIGSTKFLT
  sigs.push_back(SIGSTKFLT);
#endif
  for (int sig = SIGRTMIN; sig <= SIGRTMAX; ++sig) {
    if (sig != OutputSink::interrupt_signal()) sigs.push_back(sig);
  }
  return sigs;
}

// A handler, although the signals are only ever read from the signalfd: the kernel drops a
// signal left at its default action when the process is the init of a PID namespace (retsnoop
// as a container's entry point), and `docker stop` would then end in SIGKILL with probes
// attached.
StopSignal::StopSignal() : signals_(signals()), saved_(signals_.size()) {
  struct sigaction sa {};
  sa.sa_handler = ignore_delivery;
  sigemptyset(&sa.sa_mask);
  for (size_t i = 0; i < signals_.size(); ++i) sigaction(signals_[i], &sa, &saved_[i]);
  sigset_t set = signal_set(signals_);
  if (sigprocmask(SIG_BLOCK, &set, &saved_mask_))
    throw UserError(std::string("sigprocmask: ") + std::strerror(errno));
  fd_ = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
  if (fd_ < 0) throw UserError(std::string("signalfd: ") + std::strerror(errno));
}

StopSignal::~StopSignal() {
  // A second Ctrl-C while detaching is pending here: unblocking it would kill the process after
  // a complete detach, with buffered output lost and a signal's exit status. Inside another
  // StopSignal (a --zoom round) it stays pending, for that one to read.
  signalfd_siginfo info;
  bool nested = sigismember(&saved_mask_, SIGINT) == 1;
  while (!nested && read(fd_, &info, sizeof(info)) == sizeof(info)) {
  }
  close(fd_);
  for (size_t i = 0; i < signals_.size(); ++i) sigaction(signals_[i], &saved_[i], nullptr);
  // The mask as found: a StopSignal made inside another (a --zoom round) leaves the signals to it.
  sigprocmask(SIG_SETMASK, &saved_mask_, nullptr);
}

void StopSignal::spare_first_interrupt(pid_t command, bool own_session) {
  command_own_session_.store(own_session);
  command_.store(command);
}

// The terminal's SIGINT comes from the kernel (SI_KERNEL) and reached the command already, unless
// the command is in a session of its own. A command stopped (SIGSTOP) would keep the passed-on
// SIGINT pending and the run waiting: it is continued to receive it.
bool StopSignal::spares(const signalfd_siginfo& info) {
  pid_t command = command_.load();
  if (!command || info.ssi_signo != SIGINT || interrupt_spared_.exchange(true)) return false;
  if (info.ssi_code != SI_KERNEL || command_own_session_.load()) {
    kill(command, SIGINT);
    kill(command, SIGCONT);
  }
  return true;
}

bool StopSignal::requested() {
  if (signo_.load()) return true;
  signalfd_siginfo info;
  while (read(fd_, &info, sizeof(info)) == sizeof(info)) {
    if (spares(info)) continue;
    int none = 0;
    signo_.compare_exchange_strong(none, int(info.ssi_signo));
  }
  return signo_.load() != 0;
}

}  // namespace retsnoop
