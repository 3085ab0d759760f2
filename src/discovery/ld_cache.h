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

// name's path: the cache's first entry of that name, else the first of lookup.dirs holding a
// regular file of that name; nullopt when neither has it.
std::optional<std::string> resolve_library(std::string_view name, const LibraryLookup& lookup);

}  // namespace retsnoop
