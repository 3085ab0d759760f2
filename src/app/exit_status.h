// What retsnoop's exit status says, for scripts and service managers (documented in
// docs/safety.md, "Exit status").
#pragma once

#include <signal.h>
#include <sys/wait.h>

namespace retsnoop {

constexpr int kExitOk = 0;          // ran until the user stopped it (SIGINT, SIGTERM)
constexpr int kExitError = 1;       // bad input, a kernel that cannot trace, an internal error
constexpr int kExitOutputLost = 2;  // standard output failed: sessions could not be printed

// A stop by any other signal (SIGHUP when the terminal or connection went away, SIGQUIT,
// SIGXFSZ past `ulimit -f`, ...) is not the normal end of a run: it exits as a shell reports a
// process killed by that signal, 128 + N, after detaching everything.
constexpr int exit_status_after_signal(int signo) {
  return signo == SIGINT || signo == SIGTERM || signo == 0 ? kExitOk : 128 + signo;
}

// Command mode ends with the command's status as a shell reports it: its exit code, or 128 + N
// when signal N killed it.
constexpr int exit_status_of_command(int wait_status) {
  return WIFSIGNALED(wait_status) ? 128 + WTERMSIG(wait_status) : WEXITSTATUS(wait_status);
}

}  // namespace retsnoop
