#include "discovery/ld_cache.h"

#include <sys/stat.h>

#include <cstdint>
#include <cstring>

#include "util/error.h"
#include "util/regular_file.h"

namespace retsnoop {

namespace {

constexpr std::string_view kNewMagic = "glibc-ld.so.cache1.1";
constexpr std::string_view kOldMagic = "ld.so-1.7.0";
constexpr size_t kNewHeaderSize = 48;  // magic+version, nlibs, len_strings, flags, 4 more words
constexpr size_t kNewEntrySize = 24;   // flags, key, value, osversion, hwcap (u64)
constexpr size_t kOldHeaderSize = 16;  // magic (11, padded to 12), nlibs
constexpr size_t kOldEntrySize = 12;   // flags, key, value
constexpr size_t kMaxCacheSize = 64 << 20;

// The loader's flag for a library of each 64-bit architecture ldconfig knows (its required bits).
constexpr uint32_t kRequiredMask = 0xff00;
#if defined(__x86_64__)
constexpr uint32_t kArchFlag = 0x0300;
#elif defined(__aarch64__)
constexpr uint32_t kArchFlag = 0x0a00;
#else
constexpr uint32_t kArchFlag = 0;
#endif

uint32_t u32_at(std::string_view s, size_t off) {
  uint32_t v;
  std::memcpy(&v, s.data() + off, sizeof(v));
  return v;
}

// The NUL-terminated string at off, nullopt when it runs past the content.
std::optional<std::string_view> string_at(std::string_view s, uint64_t off) {
  if (off >= s.size()) return std::nullopt;
  size_t end = s.find('\0', off);
  if (end == std::string_view::npos) return std::nullopt;
  return s.substr(off, end - off);
}

// The new layout, whose string offsets count from its own header.
std::vector<LdCacheEntry> parse_new(std::string_view s) {
  std::vector<LdCacheEntry> out;
  if (s.size() < kNewHeaderSize || s.substr(0, kNewMagic.size()) != kNewMagic) return out;
  uint64_t nlibs = u32_at(s, kNewMagic.size());
  uint64_t room = (s.size() - kNewHeaderSize) / kNewEntrySize;
  if (nlibs > room) nlibs = room;
  for (uint64_t i = 0; i < nlibs; ++i) {
    size_t at = kNewHeaderSize + i * kNewEntrySize;
    uint32_t flags = u32_at(s, at);
    auto name = string_at(s, u32_at(s, at + 4));
    auto path = string_at(s, u32_at(s, at + 8));
    if (!name || !path) break;
    if ((flags & kRequiredMask) == kArchFlag)
      out.push_back({std::string(*name), std::string(*path)});
  }
  return out;
}

}  // namespace

std::vector<LdCacheEntry> parse_ld_cache(std::string_view content) {
  if (content.substr(0, kNewMagic.size()) == kNewMagic) return parse_new(content);
  if (content.size() < kOldHeaderSize || content.substr(0, kOldMagic.size()) != kOldMagic)
    return {};
  // The old layout's table, then the new layout's header 8-byte aligned.
  uint64_t old_end = kOldHeaderSize + uint64_t(u32_at(content, 12)) * kOldEntrySize;
  old_end = (old_end + 7) & ~uint64_t(7);
  if (old_end >= content.size()) return {};
  return parse_new(content.substr(old_end));
}

namespace {

std::string_view path_base_name(std::string_view path) {
  size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

std::optional<std::string> mapped_library(std::string_view name,
                                          const std::vector<std::string>& mapped) {
  for (const std::string& path : mapped) {
    std::string_view base = path_base_name(path);
    if (base.starts_with(name) && (base.size() == name.size() || base[name.size()] == '.'))
      return path;
  }
  return std::nullopt;
}

std::optional<std::string> file_in_dirs(std::string_view name,
                                        const std::vector<std::string>& dirs) {
  for (const std::string& dir : dirs) {
    std::string path = dir + "/" + std::string(name);
    struct stat st;
    if (stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode)) return path;
  }
  return std::nullopt;
}

std::optional<std::string> cached_library(std::string_view name, const std::string& cache_path) {
  try {
    std::string content = read_regular_file(cache_path, kMaxCacheSize, "ld.so.cache");
    for (const LdCacheEntry& e : parse_ld_cache(content)) {
      if (e.name == name) return e.path;
    }
  } catch (const UserError&) {
    // No cache (a minimal system, a container): the directories alone decide.
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> resolve_library(std::string_view name, const LibraryLookup& lookup) {
  if (auto path = mapped_library(name, lookup.mapped)) return path;
  if (auto path = file_in_dirs(name, lookup.first_dirs)) return path;
  if (auto path = cached_library(name, lookup.cache_path)) return path;
  return file_in_dirs(name, lookup.dirs);
}

}  // namespace retsnoop
