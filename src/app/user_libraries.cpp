#include "app/user_libraries.h"

#include <fcntl.h>
#include <sys/stat.h>

#include <cstdlib>
#include <set>
#include <string>

#include "app/command.h"
#include "discovery/run_paths.h"
#include "symbolize/proc_maps.h"
#include "util/owned_fd.h"
#include "util/root_confined_open.h"

namespace retsnoop {

namespace {

// A process maps a few hundred files; a crafted one may map tens of thousands.
constexpr size_t kMaxMappedFiles = 4096;

bool names_a_library(const UserGlobs& globs) {
  for (const auto* set : {&globs.entry, &globs.allow, &globs.deny}) {
    for (const GlobSpec& g : *set) {
      if (!g.binary.starts_with('/')) return true;
    }
  }
  return false;
}

bool same_file(const struct stat& a, const struct stat& b) {
  return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

// The maps name files as the process sees them, under its root. Each is kept when, resolved
// inside that root, it is still the regular file mapped (not a link its owner put there since);
// as retsnoop's path, under /proc/PID/root when that root is not retsnoop's own.
void add_mapped_files(int pid, std::vector<std::string>& out, std::set<std::string>& seen) {
  std::string proc = "/proc/" + std::to_string(pid);
  OwnedFd root(open((proc + "/root").c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
  OwnedFd maps(open((proc + "/maps").c_str(), O_RDONLY | O_CLOEXEC));
  struct stat root_st, own_root;
  if (!root || !maps || fstat(root.get(), &root_st) || stat("/", &own_root)) return;
  std::string prefix = same_file(root_st, own_root) ? "" : proc + "/root";
  read_proc_maps(maps.get(), [&](const MapsEntry& e) {
    std::string path(e.path);
    if (e.path_cut || seen.count(path)) return true;
    seen.insert(path);
    OwnedFd fd = open_regular_in_root(root.get(), path);
    struct stat st;
    if (fd && fstat(fd.get(), &st) == 0 && st.st_dev == e.dev && st.st_ino == e.inode)
      out.push_back(prefix + path);
    return seen.size() < kMaxMappedFiles;
  });
}

}  // namespace

LibraryLookup user_library_lookup(const Options& opts, const UserGlobs& globs) {
  LibraryLookup lookup;
  if (!names_a_library(globs)) return lookup;
  std::set<std::string> seen;
  for (int pid : opts.allow_pids) add_mapped_files(pid, lookup.mapped, seen);
  if (!opts.command.empty()) {
    std::optional<std::string> exe = resolve_command(opts.command.front(), command_search_path());
    const char* ld_path = std::getenv("LD_LIBRARY_PATH");
    if (exe)
      lookup.first_dirs = loader_first_dirs(read_run_paths(*exe), ld_path ? ld_path : "", *exe);
  }
  return lookup;
}

}  // namespace retsnoop
