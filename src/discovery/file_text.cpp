#include "discovery/file_text.h"

#include <cstdio>
#include <memory>

namespace retsnoop {

std::optional<std::string> read_text_file(const std::string& path) {
  std::unique_ptr<FILE, int (*)(FILE*)> f(std::fopen(path.c_str(), "re"), &std::fclose);
  if (!f) return std::nullopt;
  std::string text;
  constexpr size_t kChunk = 1 << 20;
  for (;;) {
    size_t used = text.size();
    text.resize(used + kChunk);
    size_t n = std::fread(text.data() + used, 1, kChunk, f.get());
    text.resize(used + n);
    if (n < kChunk) break;
  }
  if (std::ferror(f.get())) return std::nullopt;
  return text;
}

}  // namespace retsnoop
