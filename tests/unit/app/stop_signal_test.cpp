#include "app/stop_signal.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>

#include "app/exit_status.h"
#include "output/output_sink.h"

namespace retsnoop {
namespace {

bool stops(int sig) {
  auto sigs = StopSignal::signals();
  return std::find(sigs.begin(), sigs.end(), sig) != sigs.end();
}

// Each of them kills a process by default: left out, it would end a run with probes attached.
TEST(StopSignal, EveryTerminatingSignalStops) {
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF,
                  SIGXFSZ, SIGXCPU, SIGIO, SIGPWR, SIGRTMAX})
    EXPECT_TRUE(stops(sig)) << strsignal(sig);
}

TEST(StopSignal, LeavesFaultsAndTheOutputInterruptAlone) {
  for (int sig : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGKILL, SIGSTOP, SIGPIPE, SIGCHLD})
    EXPECT_FALSE(stops(sig)) << strsignal(sig);
  EXPECT_FALSE(stops(OutputSink::interrupt_signal()));
}

// Raised while a StopSignal exists, a signal is a stop request, not the end of the process; the
// exit status then names it.
TEST(StopSignal, RaisedSignalIsReadAsAStopRequest) {
  for (int sig : StopSignal::signals()) {
    StopSignal stop;
    EXPECT_FALSE(stop.requested());
    ASSERT_EQ(raise(sig), 0);
    EXPECT_TRUE(stop.requested()) << strsignal(sig);
    EXPECT_EQ(stop.signal_number(), sig);
  }
}

TEST(StopSignal, FirstSignalDecidesTheExitStatus) {
  StopSignal stop;
  raise(SIGXFSZ);
  EXPECT_TRUE(stop.requested());
  raise(SIGTERM);
  EXPECT_TRUE(stop.requested());
  EXPECT_EQ(exit_status_after_signal(stop.signal_number()), 128 + SIGXFSZ);
}

bool blocked(int sig) {
  sigset_t mask;
  sigprocmask(SIG_BLOCK, nullptr, &mask);
  return sigismember(&mask, sig) == 1;
}

// --zoom keeps one across its rounds, each of which makes its own: a signal between two rounds
// must wait for the zoom instead of ending the process.
TEST(StopSignal, AnInnerOneLeavesTheOuterOnesMask) {
  ASSERT_FALSE(blocked(SIGINT));
  {
    StopSignal outer;
    {
      StopSignal inner;
      ASSERT_EQ(raise(SIGINT), 0);  // after the inner one's last look
    }
    EXPECT_TRUE(blocked(SIGINT));
    EXPECT_TRUE(outer.requested());
    EXPECT_EQ(outer.signal_number(), SIGINT);
  }
  EXPECT_FALSE(blocked(SIGINT));
}

// Command mode: the first SIGINT is the command's; a signal sent to retsnoop alone is passed on
// to it. Either way the run goes on, and knows the command was interrupted.
TEST(StopSignal, TheSparedInterruptIsNotAStopButIsKnown) {
  pid_t command = fork();
  ASSERT_GE(command, 0);
  if (command == 0) {
    pause();
    _exit(0);
  }
  int status = 0;
  {
    StopSignal stop;
    stop.spare_first_interrupt(command, false);
    EXPECT_FALSE(stop.interrupt_spared());
    ASSERT_EQ(raise(SIGINT), 0);
    EXPECT_FALSE(stop.requested());
    EXPECT_TRUE(stop.interrupt_spared());
    ASSERT_EQ(waitpid(command, &status, 0), command);
    ASSERT_EQ(raise(SIGINT), 0);
    EXPECT_TRUE(stop.requested());
  }
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGINT);
}

}  // namespace
}  // namespace retsnoop
