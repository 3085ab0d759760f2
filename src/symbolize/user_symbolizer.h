// User-space stack addresses -> function, source line and mapped file (-U). Each process's memory
// map is recorded while it runs (at its first session, and again at its first after each exec),
// so that its stacks are symbolized after it exited or exec'd another program.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "symbolize/elf_file.h"
#include "symbolize/proc_maps.h"
#include "symbolize/symbolizer.h"

namespace retsnoop {

struct UserFrame {
  SymbolizedAddr sym;   // symbol and source line; found == false when the file has none
  bool mapped = false;  // the address lies in a mapped file
  std::string binary;   // that file, as the process sees it
  uint64_t file_offset = 0;
};

// What the renderers need; a fake in their unit tests.
class UserSymbols {
 public:
  virtual ~UserSymbols() = default;
  // addr of process pid's stack in session session_id. is_return_addr: every frame but the
  // innermost (which is where the thread entered the kernel).
  virtual UserFrame symbolize(uint32_t pid, uint64_t session_id, uint64_t addr,
                              bool is_return_addr) = 0;
};

class ProcessSymbolizer : public UserSymbols {
 public:
  // Processes whose maps are kept: beyond, the one recorded longest ago is forgotten (its later
  // stacks print addresses only), with the files only it mapped and their descriptors.
  static constexpr size_t kMaxProcesses = 4096;

  // host_root: the root of retsnoop's own files ("" in production: /), searched for debug files
  // after the process's root.
  explicit ProcessSymbolizer(std::string host_root = "", size_t max_processes = kMaxProcesses);

  // Reads /proc/PID/maps and opens each mapped file as the process sees it (its mount namespace).
  // The map serves the sessions from from_session on (their ids grow), until a map recorded for a
  // later session. A process already gone is skipped: its stacks show addresses only (or those
  // of the map recorded before). Thread-safe.
  void record_process(uint32_t pid, uint64_t from_session);
  // From one thread at a time (the files' libdw handles are not thread-safe); safe to run
  // alongside record_process().
  UserFrame symbolize(uint32_t pid, uint64_t session_id, uint64_t addr,
                      bool is_return_addr) override;

  // Maps kept per process: a process that execs in a loop must not grow them without bound.
  static constexpr size_t kMapsPerProcess = 8;

 private:
  struct Mapping {
    MappedRange range;
    std::shared_ptr<ElfFile> file;  // null when the file could not be opened
  };
  struct ProcessMap {
    uint64_t from_session = 0;
    std::vector<Mapping> maps;
  };
  std::shared_ptr<ElfFile> open_file(uint32_t pid, const MappedRange& range,
                                     const ElfFile::Dir& root_dir);
  const ProcessMap* map_for(uint32_t pid, uint64_t session_id) const;
  void forget_oldest_process();

  ElfFile::Dir host_root_;
  std::mutex mu_;
  size_t max_processes_;
  // Per process, ordered by from_session.
  std::unordered_map<uint32_t, std::vector<ProcessMap>> procs_;
  std::unordered_map<uint32_t, uint64_t> recorded_at_;  // per process: recordings_ then
  uint64_t recordings_ = 0;
  // Shared by every process mapping the same file (device and inode as the map lists them),
  // opened and read once.
  std::map<std::pair<uint64_t, uint64_t>, std::shared_ptr<ElfFile>> files_;
};

}  // namespace retsnoop
