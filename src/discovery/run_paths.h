// Where the dynamic loader looks for a program's libraries before its cache: the program's run
// paths (DT_RPATH, DT_RUNPATH) and LD_LIBRARY_PATH, in the loader's order. Command mode resolves
// a "LIBRARY:GLOB" as the command's loader will.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace retsnoop {

struct RunPaths {
  std::string rpath;    // DT_RPATH, searched before LD_LIBRARY_PATH (ignored with a DT_RUNPATH)
  std::string runpath;  // DT_RUNPATH, searched after it
};

// The run paths of the ELF file at path, unexpanded; empty when it has none or cannot be read.
RunPaths read_run_paths(const std::string& path);

// A colon-separated search list's directories, with $ORIGIN and ${ORIGIN} replaced by origin
// (the program's directory). Empty entries (the loader's current directory) and entries with
// other substitutions ($LIB, $PLATFORM: the loader's own choice) are left out.
std::vector<std::string> split_search_path(std::string_view list, std::string_view origin);

// The directories searched before the cache for a program at exe_path run with
// LD_LIBRARY_PATH ld_library_path: DT_RPATH (without a DT_RUNPATH), LD_LIBRARY_PATH, DT_RUNPATH.
std::vector<std::string> loader_first_dirs(const RunPaths& paths, std::string_view ld_library_path,
                                           std::string_view exe_path);

}  // namespace retsnoop
