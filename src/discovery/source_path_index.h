// Resolves ':PATHGLOB' selections into function names. Implemented from vmlinux DWARF
// (cu_globs.h); an interface so that discovery can be tested without a vmlinux.
#pragma once

#include <string>
#include <vector>

namespace retsnoop {

class SourcePathIndex {
 public:
  virtual ~SourcePathIndex() = default;
  // Names of functions defined in compile units whose source path (relative to the kernel tree
  // root) matches path_glob.
  virtual std::vector<std::string> functions_in_paths(const std::string& path_glob) = 0;
};

}  // namespace retsnoop
