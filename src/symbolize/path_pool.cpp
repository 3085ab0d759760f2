#include "symbolize/path_pool.h"

namespace retsnoop {

// The string's buffer past its inline room, the string itself with its control block, and a
// hash node with its bucket.
size_t PathPool::footprint(const std::string& path) {
  constexpr size_t kNode = 4 * sizeof(void*) + sizeof(std::string_view) + sizeof(Path);
  constexpr size_t kShared = 2 * sizeof(void*) + sizeof(std::string);
  return path.capacity() + 1 + kShared + kNode;
}

PathPool::Path PathPool::intern(std::string_view path) {
  if (auto it = paths_.find(path); it != paths_.end()) return it->second;
  auto kept = std::make_shared<const std::string>(path);
  paths_.emplace(*kept, kept);
  bytes_ += footprint(*kept);
  return kept;
}

void PathPool::sweep() {
  for (auto it = paths_.begin(); it != paths_.end();) {
    if (it->second.use_count() > 1) {
      ++it;
      continue;
    }
    bytes_ -= footprint(*it->second);
    it = paths_.erase(it);
  }
}

}  // namespace retsnoop
