#include "discovery/cu_globs.h"

#include <elfutils/libdw.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string_view>

#include "discovery/file_text.h"
#include "discovery/glob.h"
#include "util/log.h"

namespace retsnoop {

namespace {

// Cache layout: a header naming the build, then each CU path on its own line followed by its
// functions as tab-prefixed lines, then a trailer whose counts prove the file is complete.
constexpr std::string_view kCacheMagic = "retsnoop-cuidx 2 ";  // 1 held DWARF names
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

std::string render_cache(const std::string& build_id, const CuFunctions& index) {
  std::string out(kCacheMagic);
  out += build_id + "\n";
  size_t nfuncs = 0;
  for (const auto& [path, funcs] : index) {
    out += path + "\n";
    for (const std::string& f : funcs) out += "\t" + f + "\n";
    nfuncs += funcs.size();
  }
  out += std::string(kCacheTrailer) + std::to_string(index.size()) + " " + std::to_string(nfuncs) +
         "\n";
  return out;
}

// Parses a cache file for build_id; nullopt when it belongs to another build or is incomplete.
std::optional<CuFunctions> parse_cache(std::string_view text, const std::string& build_id) {
  std::string header = std::string(kCacheMagic) + build_id + "\n";
  if (!text.starts_with(header)) return std::nullopt;
  text.remove_prefix(header.size());
  CuFunctions index;
  size_t nfuncs = 0;
  while (!text.empty()) {
    size_t nl = text.find('\n');
    if (nl == std::string_view::npos) return std::nullopt;
    std::string_view line = text.substr(0, nl);
    text.remove_prefix(nl + 1);
    if (line.starts_with('\t') && !index.empty()) {
      index.back().second.emplace_back(line.substr(1));
      ++nfuncs;
    } else if (line.starts_with(kCacheTrailer)) {
      std::string expected = std::to_string(index.size()) + " " + std::to_string(nfuncs);
      if (line.substr(kCacheTrailer.size()) != expected || !text.empty()) return std::nullopt;
      return index;
    } else {
      index.emplace_back(std::string(line), std::vector<std::string>{});
    }
  }
  return std::nullopt;
}

// Write-then-rename, so a concurrent reader sees either no file or a complete one.
void write_cache_atomically(const std::string& path, const std::string& text) {
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
  std::string tmp = path + ".tmp." + std::to_string(getpid());
  FILE* f = std::fopen(tmp.c_str(), "we");
  bool ok = f && std::fwrite(text.data(), 1, text.size(), f) == text.size();
  ok = f && std::fclose(f) == 0 && ok;
  if (ok && std::rename(tmp.c_str(), path.c_str()) == 0) return;
  std::remove(tmp.c_str());
  logf(LOG_DEBUG, "Can't write CU index cache %s\n", path.c_str());
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
  std::string cache = cache_path();
  if (!cache.empty()) {
    if (std::optional<std::string> text = read_text_file(cache))
      index_ = parse_cache(*text, image_->build_id());
    if (index_) {
      logf(LOG_DEBUG, "Read the compile unit index from %s\n", cache.c_str());
      return *index_;
    }
  }
  auto start = std::chrono::steady_clock::now();
  index_ = scan_compile_units(*image_);
  logf(LOG_DEBUG, "Indexed %zu compile units of %s in %.0f ms\n", index_->size(),
       image_->path().c_str(), ms_since(start));
  if (!cache.empty()) write_cache_atomically(cache, render_cache(image_->build_id(), *index_));
  return *index_;
}

std::string CuGlobIndex::cache_path() const {
  // Without a build id nothing ties a cache file to this image.
  if (cache_dir_.empty() || image_->build_id().empty()) return {};
  return cache_dir_ + "/" + image_->build_id() + ".cuidx";
}

std::string default_cu_cache_dir() {
  // Joined as paths: HOME is "/" for init and its children ("//.cache" looks like a typo).
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  if (xdg && *xdg) return std::filesystem::path(xdg) / "retsnoop";
  const char* home = std::getenv("HOME");
  if (home && *home) return std::filesystem::path(home) / ".cache/retsnoop";
  return {};
}

}  // namespace retsnoop
