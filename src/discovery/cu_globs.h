// ':PATHGLOB' selection from vmlinux DWARF: compile-unit source path -> functions defined in it.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "discovery/cu_index_cache.h"
#include "discovery/source_path_index.h"
#include "discovery/vmlinux.h"
#include "util/cache_dir.h"

namespace retsnoop {

// Indexes every compile unit of the vmlinux on first use and keeps the result in
// <cache_dir>/<build-id>.cuidx, so later runs skip DWARF entirely.
class CuGlobIndex : public SourcePathIndex {
 public:
  // cache_dir empty: no on-disk cache. The directory is opened, and created, only when the index
  // is first needed (see CacheDir::open for the directories it refuses).
  CuGlobIndex(std::shared_ptr<Vmlinux> image, std::string cache_dir);

  std::vector<std::string> functions_in_paths(const std::string& path_glob) override;

 private:
  const CuFunctions& index();
  std::optional<CacheDir> cache_dir() const;

  std::shared_ptr<Vmlinux> image_;
  std::string cache_dir_;
  std::optional<CuFunctions> index_;
};

// Reads only the CU DIEs of the DWARF (paths and code ranges), then places each function symbol
// of the ELF symbol table in the CU whose code holds its address: walking the DIEs inside every
// CU costs ten times more on a distribution vmlinux (about 160 MB of .debug_info).
CuFunctions scan_compile_units(const Vmlinux& image);

}  // namespace retsnoop
