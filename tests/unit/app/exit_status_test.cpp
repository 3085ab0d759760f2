#include "app/exit_status.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>

namespace retsnoop {
namespace {

// The wait status of a real child that ends the way `end` makes it.
template <typename End>
int wait_status_of(End end) {
  pid_t pid = fork();
  if (pid == 0) {
    end();
    _exit(0);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return status;
}

TEST(ExitStatus, CommandExitCodePassesThrough) {
  EXPECT_EQ(exit_status_of_command(wait_status_of([] { _exit(0); })), 0);
  EXPECT_EQ(exit_status_of_command(wait_status_of([] { _exit(3); })), 3);
  EXPECT_EQ(exit_status_of_command(wait_status_of([] { _exit(255); })), 255);
}

TEST(ExitStatus, CommandKilledBySignalIs128PlusN) {
  EXPECT_EQ(exit_status_of_command(wait_status_of([] { raise(SIGKILL); })), 137);
  EXPECT_EQ(exit_status_of_command(wait_status_of([] {
              signal(SIGTERM, SIG_DFL);
              raise(SIGTERM);
            })),
            143);
}

TEST(ExitStatus, StopSignals) {
  EXPECT_EQ(exit_status_after_signal(SIGINT), kExitOk);
  EXPECT_EQ(exit_status_after_signal(SIGTERM), kExitOk);
  EXPECT_EQ(exit_status_after_signal(SIGHUP), 129);
  EXPECT_EQ(exit_status_after_signal(SIGUSR1), 138);
}

}  // namespace
}  // namespace retsnoop
