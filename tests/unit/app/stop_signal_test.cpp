#include "app/stop_signal.h"

#include <gtest/gtest.h>
#include <signal.h>

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

}  // namespace
}  // namespace retsnoop
