#include "attach/parallel.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

#include "util/fault_injection.h"

namespace retsnoop {

namespace {

// The first exception thrown by any task, kept until every task has run.
class FirstException {
 public:
  void capture() {
    std::lock_guard lock(mu_);
    if (!first_) first_ = std::current_exception();
  }
  void rethrow() const {
    if (first_) std::rethrow_exception(first_);
  }

 private:
  std::mutex mu_;
  std::exception_ptr first_;
};

// Starts up to count workers; fewer when the system refuses more threads.
std::vector<std::thread> start_workers(size_t count, const std::function<void()>& worker) {
  std::vector<std::thread> pool;
  try {
    pool.reserve(count);
    for (size_t t = 0; t < count; ++t) {
      inject_fault(FaultPoint::ThreadStart);
      pool.emplace_back(worker);
    }
  } catch (const std::system_error&) {
  } catch (const std::bad_alloc&) {
  }
  return pool;
}

}  // namespace

void parallel_for(size_t n, size_t threads, const std::function<void(size_t)>& task) {
  threads = std::max<size_t>(1, std::min(threads, n));
  std::atomic<size_t> next{0};
  FirstException error;
  auto worker = [&] {
    for (size_t i = next++; i < n; i = next++) {
      try {
        task(i);
      } catch (...) {
        error.capture();
      }
    }
  };
  std::vector<std::thread> pool = start_workers(threads - 1, worker);
  worker();
  for (auto& th : pool) th.join();
  error.rethrow();
}

}  // namespace retsnoop
