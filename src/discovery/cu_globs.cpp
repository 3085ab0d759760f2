#include "discovery/cu_globs.h"

#include <elfutils/libdw.h>

#include <algorithm>
#include <chrono>
#include <string_view>

#include "discovery/cu_index_cache.h"
#include "discovery/glob.h"
#include "util/cache_dir.h"
#include "util/log.h"

namespace retsnoop {

namespace {

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
      index_ = parse_cu_index_cache(*text, image_->build_id());
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
  if (dir) dir->write(name, render_cu_index_cache(image_->build_id(), *index_));
  return *index_;
}

std::optional<CacheDir> CuGlobIndex::cache_dir() const {
  // Without a build id nothing ties a cache file to this image.
  if (cache_dir_.empty() || image_->build_id().empty()) return std::nullopt;
  return CacheDir::open(cache_dir_);
}

}  // namespace retsnoop
