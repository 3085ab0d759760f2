#include "symbolize/user_symbolizer.h"

#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>

#include "util/file_text.h"
#include "util/log.h"
#include "util/root_confined_open.h"
#include "util/text_escape.h"

namespace retsnoop {

namespace {

std::string proc_dir(uint32_t pid) { return "/proc/" + std::to_string(pid); }

ElfFile::Dir open_dir(const std::string& path) {
  return std::make_shared<const OwnedFd>(open(path.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
}

// The regular file the memory map names, by device and inode: not a file swapped in at its path
// since, nor a FIFO or a device node put there.
bool is_mapped_file(int fd, const MappedRange& range) {
  struct stat st;
  return fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_dev == range.dev &&
         st.st_ino == range.inode;
}

}  // namespace

ProcessSymbolizer::ProcessSymbolizer(const std::string& host_root, UserCacheLimits limits,
                                     WorkerOptions worker)
    : host_root_(open_dir(host_root.empty() ? "/" : host_root)),
      limits_(limits),
      worker_(std::make_shared<WorkerClient>(std::move(worker))) {}

// The worker goes with the last file holding it, killed and reaped.
ProcessSymbolizer::~ProcessSymbolizer() { worker_->shutdown(); }

// With mu_ held. A file no process map uses any more is dropped from the cache with it.
void ProcessSymbolizer::forget_least_used_process() {
  auto least = std::min_element(procs_.begin(), procs_.end(), [](const auto& a, const auto& b) {
    return a.second.last_used < b.second.last_used;
  });
  procs_.erase(least);
  std::erase_if(files_, [](const auto& f) { return f.second.use_count() == 1; });
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

// The mapped file itself through /proc/PID/map_files (root only), which works as long as the memory
// map can be read, even while the process exits and after it lost its root; else the path resolved
// in the process's root (root_dir), never out of it. A file already opened for any process is
// reused.
std::shared_ptr<ProcessSymbolizer::FileSlot> ProcessSymbolizer::open_file(
    uint32_t pid, const MappedRange& range, const ElfFile::Dir& root_dir) {
  FileKey key{range.dev, range.inode};
  {
    std::lock_guard lock(mu_);
    if (auto slot = cached_file(key)) return slot;
  }
  char map_file[64];
  std::snprintf(map_file, sizeof(map_file), "/map_files/%" PRIx64 "-%" PRIx64, range.start,
                range.end);
  OwnedFd fd(
      open((proc_dir(pid) + map_file).c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
  if (!fd && *root_dir) fd = open_regular_in_root(root_dir->get(), range.path);
  if (!fd) {
    logf(LOG_DEBUG, "PID %u: cannot open %s: %s\n", pid, escaped(range.path).c_str(),
         std::strerror(errno));
    return nullptr;
  }
  if (!is_mapped_file(fd.get(), range)) {
    logf(LOG_DEBUG, "PID %u: %s is not the file mapped\n", pid, escaped(range.path).c_str());
    return nullptr;
  }
  auto file = std::make_shared<WorkerElfFile>(
      worker_, std::move(fd), std::vector<ElfFile::Dir>{root_dir, host_root_}, range.path);
  std::lock_guard lock(mu_);
  if (auto slot = cached_file(key)) return slot;  // opened for another process meanwhile
  if (files_.size() >= limits_.files) forget_least_used_file();
  auto slot = std::make_shared<FileSlot>(FileSlot{std::move(file), ++uses_});
  files_.emplace(key, slot);
  return slot;
}

void ProcessSymbolizer::record_process(uint32_t pid, uint64_t from_session) {
  auto text = read_text_file(proc_dir(pid) + "/maps");
  if (!text) {
    logf(LOG_DEBUG, "PID %u exited before its memory map was read: its user stacks stay raw\n",
         pid);
    return;
  }
  ElfFile::Dir root_dir = open_dir(proc_dir(pid) + "/root");
  std::vector<Mapping> maps;
  for (MappedRange& range : parse_proc_maps(*text)) {
    auto slot = open_file(pid, range, root_dir);
    maps.push_back({std::move(range), std::move(slot)});
  }
  logf(LOG_DEBUG, "PID %u: %zu file mappings recorded for sessions from %" PRIu64 " on\n", pid,
       maps.size(), from_session);
  std::lock_guard lock(mu_);
  Process& proc = procs_[pid];
  proc.last_used = ++uses_;
  add_map(proc, from_session, std::move(maps));
  if (procs_.size() > limits_.processes) forget_least_used_process();
}

// With mu_ held.
void ProcessSymbolizer::add_map(Process& proc, uint64_t from_session, std::vector<Mapping> maps) {
  auto& history = proc.history;
  // Read while exiting, the map may be empty: the earlier one stays in use.
  if (maps.empty() && !history.empty()) return;
  auto at = std::find_if(history.begin(), history.end(),
                         [&](const ProcessMap& p) { return p.from_session >= from_session; });
  if (at != history.end() && at->from_session == from_session)
    at->maps = std::move(maps);
  else
    history.insert(at, ProcessMap{from_session, std::move(maps)});
  if (history.size() > kMapsPerProcess) history.erase(history.begin());
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
    auto m = std::find_if(map->maps.begin(), map->maps.end(), [&](const Mapping& m) {
      return addr >= m.range.start && addr < m.range.end;
    });
    if (m == map->maps.end()) return out;
    out.mapped = true;
    out.binary = m->range.path;
    out.file_offset = addr - m->range.start + m->range.file_offset;
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
