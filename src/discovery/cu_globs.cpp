#include "discovery/cu_globs.h"

#include <elfutils/libdw.h>
#include <zlib.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string_view>

#include "discovery/glob.h"
#include "util/cache_dir.h"
#include "util/log.h"

namespace retsnoop {

namespace {

// Cache layout: a header naming the build, then each CU path on its own line followed by its
// functions as tab-prefixed lines, then a trailer with the counts and the CRC-32 of everything
// before it, so that a truncated or corrupted file is rebuilt rather than trusted.
constexpr std::string_view kCacheMagic = "retsnoop-cuidx 3 ";  // 1 held DWARF names, 2 no CRC
constexpr std::string_view kCacheTrailer = "end ";

// Where one compile unit has code: [low, high) in link-time addresses.
struct CuRange {
  uint64_t low;
  uint64_t high;
  size_t cu;  // index into the CuFunctions being built
};

// Appends the code ranges of the CU DIE. A range at address 0 is code the linker discarded
// (.exit.text and the like), whose DWARF was resolved against nothing.
void append_ranges(Dwarf_Die* cu, size_t index, std::vector<CuRange>& out) {
  Dwarf_Addr base, low, high;
  for (ptrdiff_t off = 0; (off = dwarf_ranges(cu, off, &base, &low, &high)) > 0;) {
    if (low != 0 && high > low) out.push_back({low, high, index});
  }
}

// Every CU path, and the ranges of code each one covers, sorted by address. Reads CU DIEs only.
CuFunctions compile_unit_ranges(const Vmlinux& image, std::vector<CuRange>& ranges) {
  CuFunctions cus;
  Dwarf_Off off = 0, next;
  size_t header_size;
  while (dwarf_nextcu(image.dwarf(), off, &next, &header_size, nullptr, nullptr, nullptr) == 0) {
    Dwarf_Die cu;
    const char* name =
        dwarf_offdie(image.dwarf(), off + header_size, &cu) ? dwarf_diename(&cu) : nullptr;
    off = next;
    if (!name) continue;
    append_ranges(&cu, cus.size(), ranges);
    cus.emplace_back(cu_tree_path(name, &cu), std::vector<std::string>{});
  }
  std::sort(ranges.begin(), ranges.end(),
            [](const CuRange& a, const CuRange& b) { return a.low < b.low; });
  return cus;
}

// The range holding addr, null when no compile unit has code there.
const CuRange* range_of(const std::vector<CuRange>& ranges, uint64_t addr) {
  auto it = std::upper_bound(ranges.begin(), ranges.end(), addr,
                             [](uint64_t a, const CuRange& r) { return a < r.low; });
  if (it == ranges.begin() || addr >= std::prev(it)->high) return nullptr;
  return &*std::prev(it);
}

std::string cache_header(const std::string& build_id) {
  return std::string(kCacheMagic) + build_id + "\n";
}

std::string cache_trailer(std::string_view before, size_t ncus, size_t nfuncs) {
  char crc[16];
  std::snprintf(crc, sizeof(crc), "%08lx",
                crc32_z(0, reinterpret_cast<const Bytef*>(before.data()), before.size()));
  return std::string(kCacheTrailer) + std::to_string(ncus) + " " + std::to_string(nfuncs) + " " +
         crc + "\n";
}

std::string render_cache(const std::string& build_id, const CuFunctions& index) {
  std::string out = cache_header(build_id);
  size_t nfuncs = 0;
  for (const auto& [path, funcs] : index) {
    out += path + "\n";
    for (const std::string& f : funcs) out += "\t" + f + "\n";
    nfuncs += funcs.size();
  }
  return out + cache_trailer(out, index.size(), nfuncs);
}

// Parses a cache file for build_id; nullopt when it belongs to another build or its trailer
// does not match its content.
std::optional<CuFunctions> parse_cache(std::string_view text, const std::string& build_id) {
  std::string header = cache_header(build_id);
  size_t trailer_at = text.rfind("\n" + std::string(kCacheTrailer));
  if (!text.starts_with(header) || trailer_at == std::string_view::npos) return std::nullopt;
  std::string_view before = text.substr(0, trailer_at + 1);
  CuFunctions index;
  size_t nfuncs = 0;
  for (std::string_view body = before.substr(header.size()); !body.empty();) {
    size_t nl = body.find('\n');
    std::string_view line = body.substr(0, nl);
    body.remove_prefix(nl + 1);
    if (line.starts_with('\t') && !index.empty()) {
      index.back().second.emplace_back(line.substr(1));
      ++nfuncs;
    } else {
      index.emplace_back(std::string(line), std::vector<std::string>{});
    }
  }
  if (text.substr(trailer_at + 1) != cache_trailer(before, index.size(), nfuncs))
    return std::nullopt;
  return index;
}

double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

}  // namespace

CuFunctions scan_compile_units(const Vmlinux& image) {
  std::vector<CuRange> ranges;
  CuFunctions cus = compile_unit_ranges(image, ranges);
  image.for_each_code_symbol([&](const ElfSymbol& sym) {
    if (!sym.is_function) return;
    if (const CuRange* r = range_of(ranges, sym.addr)) cus[r->cu].second.emplace_back(sym.name);
  });
  CuFunctions out;
  for (auto& [path, funcs] : cus) {
    if (funcs.empty()) continue;
    std::sort(funcs.begin(), funcs.end());
    funcs.erase(std::unique(funcs.begin(), funcs.end()), funcs.end());
    out.emplace_back(std::move(path), std::move(funcs));
  }
  return out;
}

CuGlobIndex::CuGlobIndex(std::shared_ptr<Vmlinux> image, std::string cache_dir)
    : image_(std::move(image)), cache_dir_(std::move(cache_dir)) {}

std::vector<std::string> CuGlobIndex::functions_in_paths(const std::string& path_glob) {
  std::vector<std::string> out;
  for (const auto& [path, funcs] : index()) {
    if (glob_match(path_glob, path)) out.insert(out.end(), funcs.begin(), funcs.end());
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

const CuFunctions& CuGlobIndex::index() {
  if (index_) return *index_;
  std::optional<CacheDir> dir = cache_dir();
  std::string name = image_->build_id() + ".cuidx";
  if (dir) {
    if (std::optional<std::string> text = dir->read(name))
      index_ = parse_cache(*text, image_->build_id());
    if (index_) {
      logf(LOG_DEBUG, "read the compile unit index from %s/%s\n", dir->path().c_str(),
           name.c_str());
      return *index_;
    }
  }
  auto start = std::chrono::steady_clock::now();
  index_ = scan_compile_units(*image_);
  logf(LOG_DEBUG, "indexed %zu compile units of %s in %.0f ms\n", index_->size(),
       image_->path().c_str(), ms_since(start));
  if (dir) dir->write(name, render_cache(image_->build_id(), *index_));
  return *index_;
}

std::optional<CacheDir> CuGlobIndex::cache_dir() const {
  // Without a build id nothing ties a cache file to this image.
  if (cache_dir_.empty() || image_->build_id().empty()) return std::nullopt;
  return CacheDir::open(cache_dir_);
}

}  // namespace retsnoop
