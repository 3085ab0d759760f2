// With -vv, how long each start-up phase took: the wait before attaching is spent in a handful
// of phases (kallsyms, BTF, BPF load, ...) and a regression in one of them should be visible
// without a profiler, on any machine retsnoop runs on.
#pragma once

#include <chrono>
#include <utility>

namespace retsnoop {

// Logs "phase NAME: N ms" at LOG_DEBUG when it goes out of scope.
class PhaseTimer {
 public:
  explicit PhaseTimer(const char* name) : name_(name), start_(std::chrono::steady_clock::now()) {}
  ~PhaseTimer();
  PhaseTimer(const PhaseTimer&) = delete;
  PhaseTimer& operator=(const PhaseTimer&) = delete;

 private:
  const char* name_;
  std::chrono::steady_clock::time_point start_;
};

// Seconds since the kernel started this process (10 ms resolution): start-up measured without
// an observer slowing it down.
double process_age_s();

// f(), timed as phase name.
template <typename F>
decltype(auto) timed(const char* name, F&& f) {
  PhaseTimer timer(name);
  return std::forward<F>(f)();
}

}  // namespace retsnoop
