// The symbolizer worker as the unit tests run it: a small program (worker_host.cpp) doing what
// retsnoop does when run with kWorkerFlag, since a test binary's /proc/self/exe runs tests.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <functional>

#include "symbolize/worker_client.h"
#include "symbolize/worker_sandbox.h"

namespace retsnoop::test {

inline WorkerOptions test_worker() {
  WorkerOptions o;
  o.exe = RS_WORKER_EXE;
  return o;
}

// The wait status of a child that entered the worker's sandbox and then ran body, exiting with
// what it returned; exit status 99 when the sandbox could not be entered.
inline int run_sandboxed(const std::function<int()>& body) {
  pid_t pid = fork();
  if (pid == 0) {
    SandboxGaps gaps;
    if (enter_worker_sandbox(-1, getppid(), gaps)) _exit(99);
    _exit(body());
  }
  int st = 0;
  waitpid(pid, &st, 0);
  return st;
}

}  // namespace retsnoop::test
