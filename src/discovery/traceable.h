// The kernel's list of functions ftrace can attach to (tracefs available_filter_functions).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace retsnoop {

struct TraceableFunc {
  std::string name;
  std::string module;  // empty for vmlinux
};

// Where tracefs is mounted: the modern mount point first, then the debugfs one of older systems.
inline const std::vector<std::string> kDefaultTracefsDirs = {"/sys/kernel/tracing",
                                                             "/sys/kernel/debug/tracing"};

// Lines are "name" or "name [module]"; a static function defined in several files is listed
// once per copy.
std::vector<TraceableFunc> parse_available_filter_functions(std::string_view text);

// Reads available_filter_functions from the first directory that has a readable one; nullopt
// when none does (tracefs not mounted, not root), which the caller must handle.
std::optional<std::vector<TraceableFunc>> read_traceable_functions(
    const std::vector<std::string>& tracefs_dirs);

}  // namespace retsnoop
