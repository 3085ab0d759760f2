#include "app/command.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <climits>
#include <fstream>
#include <string>

#include "app/exit_status.h"
#include "temp_dir.h"
#include "util/error.h"

namespace retsnoop {
namespace {

std::string make_script(const test::TempDir& dir, const std::string& name, const std::string& body,
                        mode_t mode = 0755) {
  std::string path = dir.write(name, "#!/bin/sh\n" + body);
  chmod(path.c_str(), mode);
  return path;
}

// Whether pid exits within limit, waited for on a pidfd, which works for a process that is not
// our child too (a zombie counts as exited; so does a process already reaped).
bool exits_within(pid_t pid, std::chrono::milliseconds limit) {
  int fd = static_cast<int>(syscall(SYS_pidfd_open, pid, 0));
  if (fd < 0) return errno == ESRCH;
  pollfd p{fd, POLLIN, 0};
  bool exited = poll(&p, 1, static_cast<int>(limit.count())) == 1;
  close(fd);
  return exited;
}

int wait_for_exit(Command& cmd, pid_t pid) {
  EXPECT_TRUE(exits_within(pid, std::chrono::seconds(5))) << "the command did not exit";
  return cmd.exit_status().value_or(-1);
}

std::string exe_of(pid_t pid) {
  char exe[PATH_MAX] = {};
  EXPECT_GT(readlink(("/proc/" + std::to_string(pid) + "/exe").c_str(), exe, sizeof(exe) - 1), 0);
  return exe;
}

// Plays retsnoop in a child process: makes a command of tool, starts it, releases it when asked,
// and dies at once without destroying it, as SIGKILL would. Returns the command's PID.
pid_t start_in_dying_parent(const std::string& tool, bool release) {
  int fds[2];
  EXPECT_EQ(pipe(fds), 0);
  pid_t parent = fork();
  if (parent == 0) {
    Command cmd({tool}, std::nullopt);
    pid_t pid = cmd.start();
    if (release) {
      StopSignal stop;
      cmd.release(stop);
    }
    (void)!write(fds[1], &pid, sizeof(pid));
    _exit(0);
  }
  close(fds[1]);
  pid_t pid = -1;
  EXPECT_EQ(read(fds[0], &pid, sizeof(pid)), ssize_t(sizeof(pid)));
  close(fds[0]);
  waitpid(parent, nullptr, 0);
  return pid;
}

TEST(ResolveCommand, SearchesPathInOrderAndSkipsNonExecutables) {
  test::TempDir a, b;
  make_script(a, "tool", "exit 0\n", 0644);
  std::string in_b = make_script(b, "tool", "exit 0\n");
  EXPECT_EQ(resolve_command("tool", a.path() + ":" + b.path()), in_b);
  EXPECT_EQ(resolve_command("missing", a.path() + ":" + b.path()), std::nullopt);
}

TEST(ResolveCommand, PathsWithASlashAreTakenAsTheyAre) {
  test::TempDir d;
  std::string tool = make_script(d, "tool", "exit 0\n");
  EXPECT_EQ(resolve_command(tool, "/nonexistent"), tool);
  EXPECT_EQ(resolve_command(d.path() + "/none", "/nonexistent"), std::nullopt);
  EXPECT_EQ(resolve_command(d.path(), ""), std::nullopt);  // a directory
}

TEST(Command, UnknownCommandIsRefusedWithoutStarting) {
  try {
    Command cmd({"retsnoop-no-such-command"}, std::nullopt);
    ADD_FAILURE() << "expected a UserError";
  } catch (const UserError& e) {
    EXPECT_STREQ(e.what(), "command not found: 'retsnoop-no-such-command' (searched PATH)");
  }
}

TEST(Command, RunsAfterReleaseAndReportsItsStatus) {
  test::TempDir d;
  std::string marker = d.path() + "/ran";
  std::string tool = make_script(d, "tool", "touch " + marker + "\nexit 7\n");
  Command cmd({tool}, std::nullopt);
  pid_t pid = cmd.start();
  EXPECT_GT(pid, 0);
  // Held before exec: still this test's program, and it does not exit until released.
  EXPECT_FALSE(exits_within(pid, std::chrono::milliseconds(50)));
  EXPECT_EQ(exe_of(pid), exe_of(getpid()));
  EXPECT_EQ(cmd.exit_status(), std::nullopt);
  EXPECT_NE(access(marker.c_str(), F_OK), 0);
  StopSignal stop;
  EXPECT_TRUE(cmd.release(stop));
  EXPECT_EQ(exit_status_of_command(wait_for_exit(cmd, pid)), 7);
  EXPECT_EQ(access(marker.c_str(), F_OK), 0);
}

TEST(Command, HeldAtExecBeforeItRuns) {
  test::TempDir d;
  std::string marker = d.path() + "/ran";
  std::string tool = make_script(d, "tool", "touch " + marker + "\nexit 5\n");
  Command cmd({tool}, std::nullopt);
  pid_t pid = cmd.start();
  bool held = false;
  StopSignal stop;
  cmd.release(stop, [&](pid_t p) {
    held = true;
    EXPECT_EQ(p, pid);
    EXPECT_NE(access(marker.c_str(), F_OK), 0);          // exec'd, not run yet
    EXPECT_NE(exe_of(p).find("sh"), std::string::npos);  // the script's interpreter
  });
  EXPECT_TRUE(held);
  EXPECT_EQ(exit_status_of_command(wait_for_exit(cmd, pid)), 5);
  EXPECT_EQ(access(marker.c_str(), F_OK), 0);
}

TEST(Command, ChildGetsDefaultSignalsAndAnEmptyMask) {
  test::TempDir d;
  // A shell that inherited SIGINT blocked or ignored would survive kill -INT $$.
  std::string tool = make_script(d, "tool", "kill -INT $$\nexit 0\n");
  sigset_t block, old;
  sigemptyset(&block);
  sigaddset(&block, SIGINT);
  sigprocmask(SIG_BLOCK, &block, &old);
  auto old_pipe = signal(SIGPIPE, SIG_IGN);
  Command cmd({tool}, std::nullopt);
  pid_t pid = cmd.start();
  {
    StopSignal stop;
    cmd.release(stop);
  }
  int status = wait_for_exit(cmd, pid);
  sigprocmask(SIG_SETMASK, &old, nullptr);
  signal(SIGPIPE, old_pipe);
  EXPECT_EQ(exit_status_of_command(status), 128 + SIGINT);
}

// retsnoop raises its own limits after making the command: the command gets those from before.
TEST(Command, ChildGetsTheLimitsInForceWhenItWasMade) {
  rlimit saved;
  ASSERT_EQ(getrlimit(RLIMIT_NOFILE, &saved), 0);
  ASSERT_GT(saved.rlim_max, 200u);
  rlimit low{200, saved.rlim_max};
  ASSERT_EQ(setrlimit(RLIMIT_NOFILE, &low), 0);
  test::TempDir d;
  std::string tool = make_script(d, "tool", "[ \"$(ulimit -n)\" = 200 ]\n");
  Command cmd({tool}, std::nullopt);
  ASSERT_EQ(setrlimit(RLIMIT_NOFILE, &saved), 0);
  pid_t pid = cmd.start();
  StopSignal stop;
  cmd.release(stop);
  EXPECT_EQ(exit_status_of_command(wait_for_exit(cmd, pid)), 0);
}

TEST(Command, AnUnreleasedChildIsKilled) {
  test::TempDir d;
  std::string marker = d.path() + "/ran";
  std::string tool = make_script(d, "tool", "touch " + marker + "\n");
  pid_t pid;
  {
    Command cmd({tool}, std::nullopt);
    pid = cmd.start();
  }
  EXPECT_EQ(kill(pid, 0), -1);  // reaped
  EXPECT_NE(access(marker.c_str(), F_OK), 0);
}

// retsnoop killed before it released the command: the command does not wait for it forever.
TEST(Command, AnUnreleasedChildDiesWithRetsnoop) {
  test::TempDir d;
  std::string marker = d.path() + "/ran";
  std::string tool = make_script(d, "tool", "touch " + marker + "\n");
  pid_t pid = start_in_dying_parent(tool, false);
  bool exited = exits_within(pid, std::chrono::seconds(5));
  if (!exited) kill(pid, SIGKILL);
  EXPECT_TRUE(exited);
  EXPECT_NE(access(marker.c_str(), F_OK), 0);
}

TEST(Command, AReleasedChildOutlivesRetsnoop) {
  test::TempDir d;
  std::string marker = d.path() + "/ran";
  std::string tool = make_script(d, "tool", "sleep 0.3\ntouch " + marker + "\n");
  pid_t pid = start_in_dying_parent(tool, true);
  EXPECT_TRUE(exits_within(pid, std::chrono::seconds(5)));
  EXPECT_EQ(access(marker.c_str(), F_OK), 0);
}

}  // namespace
}  // namespace retsnoop

namespace retsnoop {
namespace {

// The command's user can stop the child between its change of user and its exec: the wait for
// the exec ends at the limit, with the child killed.
TEST(Command, AChildStoppedBeforeItsExecIsKilledAtTheLimit) {
  test::TempDir d;
  std::string marker = d.path() + "/ran";
  Command cmd({make_script(d, "tool", "touch " + marker + "\n")}, std::nullopt);
  pid_t pid = cmd.start();
  ASSERT_EQ(kill(pid, SIGSTOP), 0);
  StopSignal stop;
  auto t0 = std::chrono::steady_clock::now();
  EXPECT_THROW(cmd.release(stop, {}, std::chrono::milliseconds(200)), UserError);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(3));
  EXPECT_EQ(kill(pid, 0), -1);  // reaped
  EXPECT_NE(access(marker.c_str(), F_OK), 0);
}

// A stop signal while the child is held ends the wait at once: no start, no error.
TEST(Command, AStopSignalEndsTheWaitForTheExec) {
  test::TempDir d;
  Command cmd({make_script(d, "tool", "exit 0\n")}, std::nullopt);
  pid_t pid = cmd.start();
  ASSERT_EQ(kill(pid, SIGSTOP), 0);
  StopSignal stop;
  raise(SIGTERM);
  auto t0 = std::chrono::steady_clock::now();
  EXPECT_FALSE(cmd.release(stop));
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(2));
  EXPECT_EQ(kill(pid, 0), -1);
}

TEST(Command, WaitStatusFromWaitid) {
  siginfo_t info{};
  info.si_code = CLD_EXITED;
  info.si_status = 3;
  EXPECT_EQ(exit_status_of_command(wait_status_of(info)), 3);
  info.si_code = CLD_KILLED;
  info.si_status = SIGKILL;
  EXPECT_EQ(exit_status_of_command(wait_status_of(info)), 128 + SIGKILL);
  info.si_code = CLD_DUMPED;
  info.si_status = SIGSEGV;
  EXPECT_TRUE(WCOREDUMP(wait_status_of(info)));
  EXPECT_EQ(WTERMSIG(wait_status_of(info)), SIGSEGV);
}

// Run as another user: from root's terminal the command gets no read access (input from
// /dev/null, output write-only), and what it leaves in its process group ends with retsnoop.
class OtherUserCommand : public ::testing::Test {
 protected:
  void SetUp() override {
    if (geteuid() != 0) GTEST_SKIP() << "changing user needs root";
    chmod(dir_.path().c_str(), 0777);
  }
  std::string read(const std::string& name) {
    std::string text;
    std::getline(std::ifstream(dir_.path() + "/" + name), text);
    return text;
  }

  test::TempDir dir_;
  CommandUser nobody_{65534, 65534, {65534}};
};

TEST_F(OtherUserCommand, TerminalIsNeverReadable) {
  int master = posix_openpt(O_RDWR | O_NOCTTY);
  ASSERT_GE(master, 0);
  ASSERT_EQ(grantpt(master), 0);
  ASSERT_EQ(unlockpt(master), 0);
  int tty = open(ptsname(master), O_RDWR | O_NOCTTY);
  ASSERT_GE(tty, 0);
  std::string d = dir_.path();
  Command cmd({make_script(dir_, "tool",
                           "readlink /proc/$$/fd/0 >" + d +
                               "/in\n"
                               "grep ^flags /proc/$$/fdinfo/1 >" +
                               d + "/out\n")},
              nobody_);
  int saved_in = dup(STDIN_FILENO), saved_out = dup(STDOUT_FILENO);
  dup2(tty, STDIN_FILENO);
  dup2(tty, STDOUT_FILENO);
  pid_t pid = cmd.start();
  dup2(saved_in, STDIN_FILENO);
  dup2(saved_out, STDOUT_FILENO);
  close(saved_in);
  close(saved_out);
  StopSignal stop;
  ASSERT_TRUE(cmd.release(stop));
  EXPECT_EQ(exit_status_of_command(wait_for_exit(cmd, pid)), 0);
  EXPECT_EQ(read("in"), "/dev/null");
  std::string flags = read("out");
  ASSERT_FALSE(flags.empty());
  EXPECT_EQ(flags.back(), '1') << flags;  // O_WRONLY, octal
  close(tty);
  close(master);
}

TEST_F(OtherUserCommand, ItsProcessGroupEndsWithRetsnoop) {
  std::string d = dir_.path();
  pid_t pid;
  {
    Command cmd({make_script(dir_, "tool", "sleep 30 &\necho $! >" + d + "/bg\nexit 0\n")},
                nobody_);
    pid = cmd.start();
    StopSignal stop;
    ASSERT_TRUE(cmd.release(stop));
    EXPECT_EQ(exit_status_of_command(wait_for_exit(cmd, pid)), 0);
  }
  pid_t bg = std::stoi(read("bg"));
  EXPECT_TRUE(exits_within(bg, std::chrono::seconds(2)));
}

}  // namespace
}  // namespace retsnoop
