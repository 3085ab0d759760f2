// The kernel's tracepoints, for expanding -J tp: and rawtp: globs.
#pragma once

#include <string>
#include <vector>

namespace retsnoop {

struct TracepointName {
  std::string category;
  std::string name;
};

// Classic tracepoints: the CATEGORY/NAME directories under events/ of the first of tracefs_dirs
// that has one, sorted. Throws UserError when none does (tracefs not mounted).
std::vector<TracepointName> list_tracepoints(const std::vector<std::string>& tracefs_dirs);

// Raw tracepoints: the kernel declares a btf_trace_NAME typedef for each one, so BTF lists them
// all without tracefs. Sorted; throws UserError when btf_path cannot be read.
std::vector<std::string> list_raw_tracepoints(const std::string& btf_path);

}  // namespace retsnoop
