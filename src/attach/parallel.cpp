#include "attach/parallel.h"

#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

namespace retsnoop {

void parallel_for(size_t n, size_t threads, const std::function<void(size_t)>& task) {
  threads = std::max<size_t>(1, std::min(threads, n));
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i = next++; i < n; i = next++) task(i);
  };
  std::vector<std::thread> pool;
  for (size_t t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
  for (auto& th : pool) th.join();
}

}  // namespace retsnoop
