#include "discovery/cu_index_cache.h"

#include <zlib.h>

#include <cstdio>

namespace retsnoop {
namespace {

// Cache layout: a header naming the build, then each CU path on its own line followed by its
// functions as tab-prefixed lines, then a trailer with the counts and the CRC-32 of everything
// before it, so that a truncated or corrupted file is rebuilt rather than trusted.
constexpr std::string_view kCacheMagic = "retsnoop-cuidx 3 ";  // 1 held DWARF names, 2 no CRC
constexpr std::string_view kCacheTrailer = "end ";

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

}  // namespace

std::string render_cu_index_cache(const std::string& build_id, const CuFunctions& index) {
  std::string out = cache_header(build_id);
  size_t nfuncs = 0;
  for (const auto& [path, funcs] : index) {
    out += path + "\n";
    for (const std::string& f : funcs) out += "\t" + f + "\n";
    nfuncs += funcs.size();
  }
  return out + cache_trailer(out, index.size(), nfuncs);
}

std::optional<CuFunctions> parse_cu_index_cache(std::string_view text,
                                                const std::string& build_id) {
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

}  // namespace retsnoop
