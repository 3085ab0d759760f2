#include "discovery/cu_globs.h"

#include <dwarf.h>
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
constexpr std::string_view kCacheMagic = "retsnoop-cuidx 1 ";
constexpr std::string_view kCacheTrailer = "end ";

bool has_code(Dwarf_Die* die) {
  return dwarf_hasattr(die, DW_AT_low_pc) || dwarf_hasattr(die, DW_AT_ranges);
}

// Functions with code among the CU's direct children (out-of-line copies of inline functions
// included). C has no nested functions, so bodies are skipped (dwarf_siblingof follows
// DW_AT_sibling) and never parsed.
std::vector<std::string> cu_functions(Dwarf_Die* cu) {
  std::vector<std::string> names;
  Dwarf_Die child;
  if (dwarf_child(cu, &child) != 0) return names;
  do {
    if (dwarf_tag(&child) != DW_TAG_subprogram || !has_code(&child)) continue;
    if (const char* name = dwarf_function_name(&child)) names.emplace_back(name);
  } while (dwarf_siblingof(&child, &child) == 0);
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
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
  CuFunctions index;
  Dwarf_Off off = 0, next;
  size_t header_size;
  while (dwarf_nextcu(image.dwarf(), off, &next, &header_size, nullptr, nullptr, nullptr) == 0) {
    Dwarf_Die cu;
    const char* name =
        dwarf_offdie(image.dwarf(), off + header_size, &cu) ? dwarf_diename(&cu) : nullptr;
    off = next;
    if (!name) continue;
    std::vector<std::string> funcs = cu_functions(&cu);
    if (!funcs.empty()) index.emplace_back(cu_tree_path(name, &cu), std::move(funcs));
  }
  return index;
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
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  if (xdg && *xdg) return std::string(xdg) + "/retsnoop";
  const char* home = std::getenv("HOME");
  if (home && *home) return std::string(home) + "/.cache/retsnoop";
  return {};
}

}  // namespace retsnoop
