// The executable file mappings of a process, as /proc/PID/maps lists them. The file is read as a
// stream through a bounded buffer: a process may list some 65,000 mappings (vm.max_map_count)
// with paths of kilobytes each, hundreds of megabytes in all, and none of it is held at once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace retsnoop {

struct MapsEntry {
  uint64_t start = 0;
  uint64_t end = 0;          // exclusive
  uint64_t file_offset = 0;  // of start in the file
  uint64_t dev = 0;          // the file's device (makedev of the listed major:minor)
  uint64_t inode = 0;
  // As the process sees it (its mount namespace), without the " (deleted)" mark of a deleted
  // file; valid during the callback only.
  std::string_view path;
  bool path_cut = false;  // longer than ProcMapsParser::kMaxPath: path is its start
};

// Called for each entry; false stops the parse (the caller's budget is spent).
using MapsEntryHandler = std::function<bool(const MapsEntry&)>;

// Only executable mappings of files (paths starting with '/') reach the handler: return
// addresses lie in code, and anonymous memory, the stack, [vdso] and the like have no symbols
// to read. Malformed lines are skipped.
class ProcMapsParser {
 public:
  // Longer paths are cut to this many bytes; the rest of their line is skipped unread. PATH_MAX:
  // a longer one can be neither opened nor shown whole.
  static constexpr size_t kMaxPath = 4096;
  // The fields before the path take at most about 100 bytes.
  static constexpr size_t kMaxLine = kMaxPath + 128;

  // Parses text, a piece of the file that may end or start in the middle of a line. False once
  // the handler stopped the parse.
  bool feed(std::string_view text, const MapsEntryHandler& on_entry);
  // The end of the file. A last line without its newline was cut short (the process exited
  // while it was read): it is skipped.
  void finish();

 private:
  bool end_line(const MapsEntryHandler& on_entry);

  std::string line_;  // the line read so far, at most kMaxLine bytes
  bool line_cut_ = false;
  bool stopped_ = false;
};

// Reads a maps file from fd to its end, or until on_entry returns false. 0, or -errno of a read
// that failed.
int read_proc_maps(int fd, const MapsEntryHandler& on_entry);

}  // namespace retsnoop
