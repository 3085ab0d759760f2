// User-space stack addresses -> function, source line and mapped file (-U). Each process's memory
// map is recorded while it runs (at its first session, and again at its first after each exec),
// so that its stacks are symbolized after it exited or exec'd another program.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "symbolize/elf_file.h"
#include "symbolize/path_pool.h"
#include "symbolize/proc_maps.h"
#include "symbolize/symbolizer.h"
#include "symbolize/worker_client.h"
#include "symbolize/worker_elf_file.h"

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

// What ProcessSymbolizer's caches hold at most. Beyond, the entry used longest ago (recorded or
// symbolized) is forgotten: a process's later stacks then print addresses only, and a file's
// frames their file and offset until a later recording opens it again. A process goes with the
// files only it mapped; a file goes with its descriptors (the file's and its debug file's) and
// everything read from it, at once, whichever processes map it.
struct UserCacheLimits {
  size_t processes = 4096;
  size_t files = 512;
  // The recorded maps of all processes, their paths included. One map larger than this (a
  // process with a million mappings) is cut there: addresses past its cut stay raw.
  size_t map_bytes = size_t(32) << 20;
};

class ProcessSymbolizer : public UserSymbols {
 public:
  // host_root: the root of retsnoop's own files ("" in production: /), searched for debug files
  // after the process's root. The files are read by a symbolizer worker (symbolizer_worker.h)
  // that worker starts, on the first lookup.
  explicit ProcessSymbolizer(const std::string& host_root = "", UserCacheLimits limits = {},
                             WorkerOptions worker = {});
  ~ProcessSymbolizer() override;

  // Reads the executable file mappings of /proc/PID/maps and opens each mapped file as the
  // process sees it (its mount namespace). The map serves the sessions from from_session on (their
  // ids grow), until a map recorded for a later session. A process already gone is skipped: its
  // stacks show addresses only (or those of the map recorded before). So is one whose start time
  // (process_start.h) is not start_time, when given: the process meant exited, and another one
  // took its PID. Thread-safe.
  void record_process(uint32_t pid, uint64_t from_session,
                      std::optional<uint64_t> start_time = std::nullopt);
  // From one thread at a time; safe to run alongside record_process(). Waits for the worker
  // at most its deadlines (WorkerOptions) per file.
  UserFrame symbolize(uint32_t pid, uint64_t session_id, uint64_t addr,
                      bool is_return_addr) override;

  // Kills the worker: every lookup from now on, and one being waited for, returns at once with
  // nothing found. From any thread.
  void shutdown() { worker_->shutdown(); }
  // The worker, for tests.
  const WorkerClient& worker() const { return *worker_; }
  // What the recorded maps and their paths take (UserCacheLimits::map_bytes), for tests.
  size_t map_cache_bytes() {
    std::lock_guard lock(mu_);
    return cache_bytes();
  }

  // Maps kept per process: a process that execs in a loop must not grow them without bound.
  static constexpr size_t kMapsPerProcess = 8;

 private:
  // A cached file, shared by every mapping of it: forgetting the file empties the slot, which
  // drops it for all of them at once.
  struct FileSlot {
    std::shared_ptr<WorkerElfFile> file;
    uint64_t last_used = 0;
  };
  struct Mapping {
    uint64_t start = 0;
    uint64_t end = 0;
    uint64_t file_offset = 0;
    PathPool::Path path;             // ends in "..." when cut
    std::shared_ptr<FileSlot> slot;  // null when the file could not be opened
  };
  struct ProcessMap {
    uint64_t from_session = 0;
    std::vector<Mapping> maps;
    size_t bytes() const { return sizeof(ProcessMap) + maps.capacity() * sizeof(Mapping); }
  };
  struct Process {
    std::vector<ProcessMap> history;  // ordered by from_session
    uint64_t last_used = 0;
  };
  using FileKey = std::pair<uint64_t, uint64_t>;  // device and inode, as the map lists them

  // The files of one recording, opened or failed, by device and inode: a file mapped many times
  // is looked up once.
  using RecordedFiles = std::map<FileKey, std::shared_ptr<FileSlot>>;

  size_t read_maps(uint32_t pid, uint64_t from_session, int proc_dir, int maps_fd);
  ProcessMap* recording(uint32_t pid, uint64_t from_session);
  std::shared_ptr<FileSlot> file_of(uint32_t pid, int proc_dir, const MapsEntry& entry,
                                    const ElfFile::Dir& root_dir, RecordedFiles& seen);
  std::shared_ptr<FileSlot> open_file(uint32_t pid, int proc_dir, const MapsEntry& entry,
                                      const ElfFile::Dir& root_dir);
  std::shared_ptr<FileSlot> cached_file(const FileKey& key);  // with mu_ held
  void start_map(Process& proc, uint64_t from_session);
  void end_map(uint32_t pid, uint64_t from_session);
  static const ProcessMap* map_for(const Process& proc, uint64_t session_id);
  size_t cache_bytes() const { return map_bytes_ + paths_.bytes(); }  // with mu_ held
  void fit_budget(Process& recorded);
  std::vector<ProcessMap>::iterator drop_map(std::vector<ProcessMap>& history,
                                             std::vector<ProcessMap>::iterator at);
  void forget_least_used_process();
  void forget_least_used_file();

  ElfFile::Dir host_root_;
  UserCacheLimits limits_;
  std::shared_ptr<WorkerClient> worker_;
  std::mutex mu_;
  uint64_t uses_ = 0;  // the clock of last_used
  std::unordered_map<uint32_t, Process> procs_;
  PathPool paths_;
  size_t map_bytes_ = 0;  // ProcessMap::bytes() of every map kept
  // Opened and read once for every process that maps the same file; the file's descriptor and
  // its handle in the worker.
  std::map<FileKey, std::shared_ptr<FileSlot>> files_;
};

}  // namespace retsnoop
