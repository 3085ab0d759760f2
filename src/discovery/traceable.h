// The kernel's list of functions ftrace can attach to (tracefs available_filter_functions).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace retsnoop {

// Views into the text the function was listed in: ~40,000 functions, each one allocation fewer at
// start-up.
struct TraceableFunc {
  std::string_view name;
  std::string_view module;  // empty for vmlinux
};

// available_filter_functions as read, and its entries.
struct TraceableList {
  std::unique_ptr<const std::string> text;  // on the heap: moving the list keeps funcs valid
  std::vector<TraceableFunc> funcs;         // views into text, or into kallsyms when there is none
};

// --zoom reads the list once for all its rounds: the kernel's traceable functions do not change
// between them. A list guessed from kallsyms views the table the first round read, which the
// rounds after it reuse too.
struct TraceableCache {
  std::optional<TraceableList> list;
  bool from_tracefs = false;
};

// Where tracefs is mounted: the modern mount point first, then the debugfs one of older systems.
inline const std::vector<std::string> kDefaultTracefsDirs = {"/sys/kernel/tracing",
                                                             "/sys/kernel/debug/tracing"};

// Lines are "name" or "name [module]"; a static function defined in several files is listed
// once per copy. The entries point into text.
std::vector<TraceableFunc> parse_available_filter_functions(std::string_view text);

// Reads available_filter_functions from the first directory that has a readable one; nullopt
// when none does (tracefs not mounted, not root), which the caller must handle.
std::optional<TraceableList> read_traceable_functions(const std::vector<std::string>& tracefs_dirs);

}  // namespace retsnoop
