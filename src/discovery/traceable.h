// The kernel's list of functions ftrace can attach to (tracefs available_filter_functions).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace retsnoop {

// Views into the text the function was listed in: 40,000 strings of their own cost 10-20 ms of
// start-up in the test VMs.
struct TraceableFunc {
  std::string_view name;
  std::string_view module;  // empty for vmlinux
  uint64_t addr = 0;        // where the list says (available_filter_functions_addrs), else 0
};

// available_filter_functions as read, and its entries.
struct TraceableList {
  std::unique_ptr<const std::string> text;  // on the heap: moving the list keeps funcs valid
  std::vector<TraceableFunc> funcs;  // views into text, or into kallsyms when there is none
  bool has_addrs = false;            // every entry's addr is set
};

// Where tracefs is mounted: the modern mount point first, then the debugfs one of older systems.
inline const std::vector<std::string> kDefaultTracefsDirs = {"/sys/kernel/tracing",
                                                             "/sys/kernel/debug/tracing"};

// Lines are "name" or "name [module]"; a static function defined in several files is listed
// once per copy. The entries point into text.
std::vector<TraceableFunc> parse_available_filter_functions(std::string_view text);

// available_filter_functions_addrs (Linux 6.5+): lines are "ADDR name" or "ADDR name [module]",
// the address in hex. Every copy of a static function comes with its own address.
std::vector<TraceableFunc> parse_available_filter_functions_addrs(std::string_view text);

// Reads available_filter_functions_addrs, else available_filter_functions, from the first
// directory that has a readable one; nullopt when none does (tracefs not mounted, not root),
// which the caller must handle. With addresses, planning needs no kallsyms.
std::optional<TraceableList> read_traceable_functions(const std::vector<std::string>& tracefs_dirs);

}  // namespace retsnoop
