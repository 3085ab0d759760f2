#include "symbolize/user_symbolizer.h"

#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>

#include "symbolize/process_start.h"
#include "util/log.h"
#include "util/root_confined_open.h"
#include "util/text_escape.h"

namespace retsnoop {

namespace {

std::string proc_dir_path(uint32_t pid) { return "/proc/" + std::to_string(pid); }

ElfFile::Dir open_dir(int at, const std::string& path) {
  return std::make_shared<const OwnedFd>(
      openat(at, path.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
}

// The regular file the memory map names, by device and inode: not a file swapped in at its path
// since, nor a FIFO or a device node put there.
bool is_mapped_file(int fd, const MapsEntry& entry) {
  struct stat st;
  return fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_dev == entry.dev &&
         st.st_ino == entry.inode;
}

// The file mapped at entry, through /proc/PID/map_files (root only), which works as long as the
// memory map can be read, even while the process exits and after it lost its root. Opened as a
// path first: a device node mapped there is never opened, which could act on the device.
OwnedFd open_map_file(int proc_dir, const MapsEntry& entry) {
  char name[64];
  std::snprintf(name, sizeof(name), "map_files/%" PRIx64 "-%" PRIx64, entry.start, entry.end);
  OwnedFd path_fd(openat(proc_dir, name, O_PATH | O_CLOEXEC));
  if (!path_fd) return path_fd;
  if (!is_mapped_file(path_fd.get(), entry)) {
    errno = EINVAL;
    return OwnedFd();
  }
  return reopen_for_reading(path_fd.get());
}

}  // namespace

ProcessSymbolizer::ProcessSymbolizer(const std::string& host_root, UserCacheLimits limits,
                                     WorkerOptions worker)
    : host_root_(open_dir(AT_FDCWD, host_root.empty() ? "/" : host_root)),
      limits_(limits),
      worker_(std::make_shared<WorkerClient>(std::move(worker))) {}

// The worker goes with the last file holding it, killed and reaped.
ProcessSymbolizer::~ProcessSymbolizer() { worker_->shutdown(); }

// With mu_ held. A file or a path no process map uses any more is dropped with it.
void ProcessSymbolizer::forget_least_used_process() {
  auto least = std::min_element(procs_.begin(), procs_.end(), [](const auto& a, const auto& b) {
    return a.second.last_used < b.second.last_used;
  });
  for (const ProcessMap& map : least->second.history) map_bytes_ -= map.bytes();
  procs_.erase(least);
  std::erase_if(files_, [](const auto& f) { return f.second.use_count() == 1; });
  paths_.sweep();
}

// With mu_ held. The slot empties for every mapping of the file; a lookup running meanwhile
// keeps the file open until it returns.
void ProcessSymbolizer::forget_least_used_file() {
  auto least = std::min_element(files_.begin(), files_.end(), [](const auto& a, const auto& b) {
    return a.second->last_used < b.second->last_used;
  });
  least->second->file.reset();
  files_.erase(least);
}

std::shared_ptr<ProcessSymbolizer::FileSlot> ProcessSymbolizer::cached_file(const FileKey& key) {
  auto it = files_.find(key);
  if (it == files_.end()) return nullptr;
  it->second->last_used = ++uses_;
  return it->second;
}

// The mapped file through /proc/PID/map_files; else its path resolved in the process's root
// (root_dir), never out of it. A file already opened for any process is reused.
std::shared_ptr<ProcessSymbolizer::FileSlot> ProcessSymbolizer::open_file(
    uint32_t pid, int proc_dir, const MapsEntry& entry, const ElfFile::Dir& root_dir) {
  FileKey key{entry.dev, entry.inode};
  {
    std::lock_guard lock(mu_);
    if (auto slot = cached_file(key)) return slot;
  }
  std::string path(entry.path);
  OwnedFd fd = open_map_file(proc_dir, entry);
  if (!fd && *root_dir && !entry.path_cut) fd = open_regular_in_root(root_dir->get(), path);
  if (!fd) {
    logf(LOG_DEBUG, "PID %u: cannot open %s: %s\n", pid, escaped(path).c_str(),
         std::strerror(errno));
    return nullptr;
  }
  if (!is_mapped_file(fd.get(), entry)) {
    logf(LOG_DEBUG, "PID %u: %s is not the file mapped\n", pid, escaped(path).c_str());
    return nullptr;
  }
  auto file = std::make_shared<WorkerElfFile>(
      worker_, std::move(fd), std::vector<ElfFile::Dir>{root_dir, host_root_}, path);
  std::lock_guard lock(mu_);
  if (auto slot = cached_file(key)) return slot;  // opened for another process meanwhile
  if (files_.size() >= limits_.files) forget_least_used_file();
  auto slot = std::make_shared<FileSlot>(FileSlot{std::move(file), ++uses_});
  files_.emplace(key, slot);
  return slot;
}

std::shared_ptr<ProcessSymbolizer::FileSlot> ProcessSymbolizer::file_of(
    uint32_t pid, int proc_dir, const MapsEntry& entry, const ElfFile::Dir& root_dir,
    RecordedFiles& seen) {
  FileKey key{entry.dev, entry.inode};
  auto it = seen.find(key);
  if (it == seen.end()) it = seen.emplace(key, open_file(pid, proc_dir, entry, root_dir)).first;
  return it->second;
}

// With mu_ held. The map being recorded for pid from from_session; nullptr once forgotten.
ProcessSymbolizer::ProcessMap* ProcessSymbolizer::recording(uint32_t pid, uint64_t from_session) {
  auto proc = procs_.find(pid);
  if (proc == procs_.end()) return nullptr;
  auto& history = proc->second.history;
  auto at = std::find_if(history.begin(), history.end(),
                         [&](const ProcessMap& p) { return p.from_session == from_session; });
  return at == history.end() ? nullptr : &*at;
}

// Appends the executable file mappings to the map recorded from from_session, which serves
// lookups as it grows: a huge map (tens of thousands of mappings, read for seconds) still gives
// the frames of the program and libraries listed first to a printer that waited its limit. Stops
// once the map fills the whole budget. The number of mappings read.
size_t ProcessSymbolizer::read_maps(uint32_t pid, uint64_t from_session, int proc_dir,
                                    int maps_fd) {
  ElfFile::Dir root_dir = open_dir(proc_dir, "root");
  RecordedFiles seen;
  size_t count = 0;
  size_t bytes = 0;  // of this map and the paths it added to the pool
  read_proc_maps(maps_fd, [&](const MapsEntry& e) {
    auto slot = file_of(pid, proc_dir, e, root_dir, seen);
    std::lock_guard lock(mu_);
    ProcessMap* map = recording(pid, from_session);
    if (!map) return false;
    size_t before = map->bytes() + paths_.bytes();
    auto path = paths_.intern(e.path_cut ? std::string(e.path) + "..." : e.path);
    size_t map_before = map->bytes();
    map->maps.push_back({e.start, e.end, e.file_offset, std::move(path), std::move(slot)});
    map_bytes_ += map->bytes() - map_before;
    bytes += map->bytes() + paths_.bytes() - before;
    ++count;
    return bytes < limits_.map_bytes;
  });
  return count;
}

void ProcessSymbolizer::record_process(uint32_t pid, uint64_t from_session,
                                       std::optional<uint64_t> start_time) {
  // Everything is read through one descriptor of the process's directory: should the process
  // exit and its PID go to another, reads fail instead of reading the other's.
  OwnedFd dir(open(proc_dir_path(pid).c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
  if (dir && start_time && process_start_time(dir.get()) != start_time) {
    logf(LOG_DEBUG, "PID %u is another process than the one traced: its user stacks stay raw\n",
         pid);
    return;
  }
  OwnedFd maps_fd;
  if (dir) maps_fd = OwnedFd(openat(dir.get(), "maps", O_RDONLY | O_CLOEXEC));
  if (!maps_fd) {
    logf(LOG_DEBUG, "PID %u exited before its memory map was read: its user stacks stay raw\n",
         pid);
    return;
  }
  {
    std::lock_guard lock(mu_);
    Process& proc = procs_[pid];
    proc.last_used = ++uses_;
    start_map(proc, from_session);
    fit_budget(proc);
  }
  size_t count = read_maps(pid, from_session, dir.get(), maps_fd.get());
  logf(LOG_DEBUG,
       "PID %u: %zu executable file mappings recorded for sessions from %" PRIu64 " on\n", pid,
       count, from_session);
  std::lock_guard lock(mu_);
  end_map(pid, from_session);
}

// With mu_ held. Other processes go first, least used first (the one just recorded is the most
// recently used); then the oldest maps of the one left.
void ProcessSymbolizer::fit_budget(Process& recorded) {
  paths_.sweep();
  if (procs_.size() > limits_.processes) forget_least_used_process();
  while (cache_bytes() > limits_.map_bytes && procs_.size() > 1) forget_least_used_process();
  while (cache_bytes() > limits_.map_bytes && recorded.history.size() > 1) {
    drop_map(recorded.history, recorded.history.begin());
    paths_.sweep();
  }
}

// With mu_ held.
std::vector<ProcessSymbolizer::ProcessMap>::iterator ProcessSymbolizer::drop_map(
    std::vector<ProcessMap>& history, std::vector<ProcessMap>::iterator at) {
  map_bytes_ -= at->bytes();
  return history.erase(at);
}

// With mu_ held. An empty map from from_session on, in place of one recorded before for it.
void ProcessSymbolizer::start_map(Process& proc, uint64_t from_session) {
  auto& history = proc.history;
  auto at = std::find_if(history.begin(), history.end(),
                         [&](const ProcessMap& p) { return p.from_session >= from_session; });
  if (at != history.end() && at->from_session == from_session) at = drop_map(history, at);
  at = history.insert(at, ProcessMap{from_session, {}});
  map_bytes_ += at->bytes();
  if (history.size() > kMapsPerProcess) drop_map(history, history.begin());
}

// With mu_ held. Read while exiting, a map may be empty: the earlier one stays in use.
void ProcessSymbolizer::end_map(uint32_t pid, uint64_t from_session) {
  ProcessMap* map = recording(pid, from_session);
  if (!map) return;
  Process& proc = procs_[pid];
  auto at = proc.history.begin() + (map - proc.history.data());
  if (map->maps.empty() && proc.history.size() > 1) {
    drop_map(proc.history, at);
  } else {
    map_bytes_ -= map->bytes();
    map->maps.shrink_to_fit();
    map_bytes_ += map->bytes();
  }
  fit_budget(proc);
}

// The latest map recorded for a session at or before session_id; else the earliest one known.
const ProcessSymbolizer::ProcessMap* ProcessSymbolizer::map_for(const Process& proc,
                                                                uint64_t session_id) {
  const auto& history = proc.history;
  if (history.empty()) return nullptr;
  auto after =
      std::upper_bound(history.begin(), history.end(), session_id,
                       [](uint64_t id, const ProcessMap& p) { return id < p.from_session; });
  return after == history.begin() ? &history.front() : &*std::prev(after);
}

UserFrame ProcessSymbolizer::symbolize(uint32_t pid, uint64_t session_id, uint64_t addr,
                                       bool is_return_addr) {
  UserFrame out;
  std::shared_ptr<WorkerElfFile> file;
  {
    std::lock_guard lock(mu_);
    auto proc = procs_.find(pid);
    if (proc == procs_.end()) return out;
    proc->second.last_used = ++uses_;
    const ProcessMap* map = map_for(proc->second, session_id);
    if (!map) return out;
    // The maps file lists mappings in address order.
    auto m = std::upper_bound(map->maps.begin(), map->maps.end(), addr,
                              [](uint64_t a, const Mapping& m) { return a < m.start; });
    if (m == map->maps.begin() || addr >= (--m)->end) return out;
    out.mapped = true;
    out.binary = *m->path;
    out.file_offset = addr - m->start + m->file_offset;
    if (m->slot && m->slot->file) {
      m->slot->last_used = ++uses_;
      file = m->slot->file;
    }
  }
  // Outside the lock: the worker reading a large file's DWARF must not hold up record_process().
  if (file) out.sym = file->lookup(out.file_offset, is_return_addr);
  return out;
}

}  // namespace retsnoop
