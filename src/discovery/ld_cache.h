// The dynamic loader's cache (/etc/ld.so.cache, written by ldconfig) and where a library name
// such as "libc.so.6" resolves, as the loader finds it for a program of retsnoop's architecture.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace retsnoop {

struct LdCacheEntry {
  std::string name;  // "libc.so.6"
  std::string path;  // "/lib/x86_64-linux-gnu/libc.so.6"
};

// The entries of a cache file's content for this architecture, in the file's order. The content
// is untrusted: an offset or a count outside it, or a string without its NUL, ends the list
// there; content in neither the current nor the old-with-new layout gives no entries.
std::vector<LdCacheEntry> parse_ld_cache(std::string_view content);

struct LibraryLookup {
  // The files a traced process maps (-p), as retsnoop opens them: a library it has loaded is
  // that file, whatever the loader's configuration says.
  std::vector<std::string> mapped;
  // Searched before the cache, as the loader searches a program's run paths and
  // LD_LIBRARY_PATH (command mode: what the command's loader will search).
  std::vector<std::string> first_dirs;
  std::string cache_path = "/etc/ld.so.cache";
  // Searched in order after the cache, as the loader's trusted directories are.
  std::vector<std::string> dirs = {"/lib64",
                                   "/usr/lib64",
                                   "/lib",
                                   "/usr/lib",
                                   "/lib/x86_64-linux-gnu",
                                   "/usr/lib/x86_64-linux-gnu",
                                   "/lib/aarch64-linux-gnu",
                                   "/usr/lib/aarch64-linux-gnu",
                                   "/usr/local/lib"};
};

// name's path: the first mapped file of that name (or of that name and a version suffix, as
// libbpf.so.1 is libbpf.so.1.1.0 on disk), else the first of lookup.first_dirs holding a regular
// file of that name, else the cache's first entry of that name, else the first of lookup.dirs
// holding one; nullopt when none has it.
std::optional<std::string> resolve_library(std::string_view name, const LibraryLookup& lookup);

}  // namespace retsnoop
