// The paths of the mapped files -U records, each kept once: a process may map one file tens of
// thousands of times, and is recorded again at each exec, and its paths may be kilobytes long.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>

namespace retsnoop {

class PathPool {
 public:
  using Path = std::shared_ptr<const std::string>;

  // The pool's copy of path, shared with every other holder of the same path.
  Path intern(std::string_view path);
  // Forgets the paths nobody else holds any more.
  void sweep();
  // Heap taken by the paths kept and their index, near enough.
  size_t bytes() const { return bytes_; }
  size_t size() const { return paths_.size(); }

 private:
  static size_t footprint(const std::string& path);

  std::unordered_map<std::string_view, Path> paths_;  // each key views its own value
  size_t bytes_ = 0;
};

}  // namespace retsnoop
