// The compile unit index cache (<build-id>.cuidx): read from a directory others may write to.
// The input goes through as the file; and since its CRC rejects nearly every mutation, the input
// is also read as an index of its own (lines, a tab before a function) whose rendering must
// parse back to the same index.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "discovery/cu_index_cache.h"

namespace {

const std::string kBuildId = "5f2a4fb3c1d0e9a8b7c6d5e4f3a2b1c0d9e8f7a6";

// Every line of text that does not start with a tab is a compile unit, every other line a
// function of the one before; a function before any unit goes to an unnamed one.
retsnoop::CuFunctions index_of(std::string_view text) {
  retsnoop::CuFunctions index;
  while (!text.empty()) {
    size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    if (!line.starts_with('\t')) {
      index.emplace_back(std::string(line), std::vector<std::string>{});
      continue;
    }
    if (index.empty()) index.emplace_back();
    index.back().second.emplace_back(line.substr(1));
  }
  return index;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  retsnoop::parse_cu_index_cache(text, kBuildId);
  retsnoop::CuFunctions index = index_of(text);
  if (retsnoop::parse_cu_index_cache(retsnoop::render_cu_index_cache(kBuildId, index), kBuildId) !=
      index)
    __builtin_trap();
  return 0;
}
