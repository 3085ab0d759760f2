// The symbolizer worker as the unit tests run it: a small program (worker_host.cpp) doing what
// retsnoop does when run with kWorkerFlag, since a test binary's /proc/self/exe runs tests.
#pragma once

#include "symbolize/worker_client.h"

namespace retsnoop::test {

inline WorkerOptions test_worker() {
  WorkerOptions o;
  o.exe = RS_WORKER_EXE;
  return o;
}

}  // namespace retsnoop::test
