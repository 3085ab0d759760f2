// The file-backed mappings of a process, as /proc/PID/maps lists them.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace retsnoop {

struct MappedRange {
  uint64_t start = 0;
  uint64_t end = 0;          // exclusive
  uint64_t file_offset = 0;  // of start in the file
  uint64_t dev = 0;          // the file's device (makedev of the listed major:minor)
  uint64_t inode = 0;
  std::string path;  // as the process sees it (its mount namespace)
  bool operator==(const MappedRange&) const = default;
};

// Mappings of files only (paths starting with '/'): anonymous memory, the stack, [vdso] and the
// like have no symbols to read. A deleted file keeps its path without the " (deleted)" mark.
// Malformed lines are skipped.
std::vector<MappedRange> parse_proc_maps(std::string_view text);

}  // namespace retsnoop
