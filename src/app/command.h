// Command mode's child: the command after "--", resolved before anything is attached, started
// once everything is, with retsnoop's working directory and environment and the resource limits
// retsnoop started with (not those it raised for itself). Run as retsnoop's own user, it stays
// in retsnoop's process group and terminal; run as another user, it gets a session of its own,
// so that it cannot push input into root's terminal (TIOCSTI), no way to read that terminal
// (standard input from /dev/null, output reopened write-only), that user's HOME, USER, LOGNAME
// and SHELL, and its process group is killed when retsnoop ends. Until released, it dies with
// retsnoop, however retsnoop dies.
#pragma once

#include <signal.h>
#include <sys/resource.h>
#include <sys/types.h>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/command_user.h"
#include "app/stop_signal.h"
#include "util/owned_fd.h"

namespace retsnoop {

class Command {
 public:
  // Resolves argv[0] in PATH (when it has no '/'); throws UserError when it names no executable
  // file. Starts nothing. The RLIMIT_MEMLOCK and RLIMIT_NOFILE in force now are the command's:
  // construct it before retsnoop raises its own.
  Command(std::vector<std::string> argv, std::optional<CommandUser> user);
  // A child that was started but not released is killed, and so is the process group of one
  // run as another user; a child that exited is reaped, one of retsnoop's user left running.
  ~Command();
  Command(const Command&) = delete;
  Command& operator=(const Command&) = delete;

  // Another command, not started, running the same file with the same arguments, user and
  // resource limits: --zoom runs the command once a round.
  std::unique_ptr<Command> again() const;

  const std::string& path() const { return path_; }
  // Forks the child, which waits for release() before it changes user and execs: the caller
  // registers its PID for tracing in between. Returns the PID. Call it on a thread that lives as
  // long as retsnoop: an unreleased child dies with the thread that forked it, not the process.
  pid_t start();
  // Called with the command's PID once it has exec'd, before it runs its first instruction.
  using AtExec = std::function<void(pid_t)>;
  // Lets the child exec and waits for that, at most limit. The child has the command's user by
  // then, who can stop it: a stop signal, or the limit, ends the wait with the child killed.
  // false: a stop signal came first. Throws UserError when the child could not exec (the exec's
  // or set*id's errno) or did not within limit. With at_exec, the child is held at its exec
  // (ptrace) until at_exec returns.
  static constexpr std::chrono::milliseconds kStartLimit{5000};
  bool release(StopSignal& stop, const AtExec& at_exec = {},
               std::chrono::milliseconds limit = kStartLimit);
  // The command's wait status once it has exited; never blocks.
  std::optional<int> exit_status();
  // In a session of its own: the terminal's Ctrl-C reaches retsnoop only.
  bool own_session() const { return user_.has_value(); }

 private:
  using Clock = std::chrono::steady_clock;

  [[noreturn]] void run_child(char* const* argv, char* const* envp, int go_fd, int err_fd,
                              pid_t parent, bool stop_before_exec) noexcept;
  std::optional<int> wait_for_exec(StopSignal& stop, Clock::time_point deadline);
  bool hold_at_exec(const AtExec& at_exec, StopSignal& stop, Clock::time_point deadline);
  void kill_and_reap();

  std::vector<std::string> argv_;
  std::string path_;
  std::optional<CommandUser> user_;
  rlimit memlock_{}, nofile_{};
  pid_t pid_ = -1;
  bool released_ = false;
  bool reaped_ = false;
  std::optional<int> status_;
  OwnedFd go_;   // write end: one byte lets the child exec
  OwnedFd err_;  // read end: the child's errno when it could not exec, EOF once it did
};

// The file argv0 runs: argv0 itself when it holds a '/', else the first executable regular file
// of that name in path_list (PATH's syntax, an empty entry meaning the current directory);
// nullopt when there is none.
std::optional<std::string> resolve_command(const std::string& argv0, const std::string& path_list);

// PATH, or the shell's search path when it is unset (glibc's execvp uses the same).
std::string command_search_path();

// The wait status (as waitpid() gives it) of a child that waitid() reported exited or killed.
int wait_status_of(const siginfo_t& info);

}  // namespace retsnoop
