#include "util/file_text.h"

#include <cstdio>
#include <memory>

namespace retsnoop {

namespace {

// Appends up to chunk bytes of f to text; false at EOF or on an error (ferror tells which).
bool append_chunk(FILE* f, std::string& text, size_t chunk) {
  size_t used = text.size();
  text.resize(used + chunk);
  size_t n = std::fread(text.data() + used, 1, chunk, f);
  text.resize(used + n);
  return n == chunk;
}

constexpr size_t kWholeChunk = 1 << 20;

std::optional<std::string> read_to_end(FILE* f, std::string text) {
  while (append_chunk(f, text, kWholeChunk)) {
  }
  if (std::ferror(f)) return std::nullopt;
  return text;
}

}  // namespace

std::optional<std::string> read_text_file(const std::string& path) {
  std::unique_ptr<FILE, int (*)(FILE*)> f(std::fopen(path.c_str(), "re"), &std::fclose);
  if (!f) return std::nullopt;
  return read_to_end(f.get(), {});
}

std::optional<SplitTextFile> SplitTextFile::open(const std::string& path) {
  File file(std::fopen(path.c_str(), "re"), &std::fclose);
  if (!file) return std::nullopt;
  return SplitTextFile(path, std::move(file));
}

std::optional<std::string> SplitTextFile::read_through_line(std::string_view line_end) {
  std::string marker = std::string(line_end) + "\n";
  std::string text = std::move(rest_start_);
  // Small chunks: what is read past the line is read before it is wanted.
  constexpr size_t kChunk = 64 << 10;
  size_t searched = 0;
  for (bool more = file_ != nullptr;;) {
    if (size_t at = text.find(marker, searched); at != std::string::npos) {
      rest_start_ = text.substr(at + marker.size());
      text.resize(at + marker.size());
      return text;
    }
    if (!more) break;
    searched = text.size() < marker.size() ? 0 : text.size() - marker.size() + 1;
    more = append_chunk(file_.get(), text, kChunk);
  }
  if (file_ && std::ferror(file_.get())) return std::nullopt;
  file_.reset();
  return text;
}

std::optional<std::string> SplitTextFile::read_rest() {
  if (!file_) return std::string();
  std::optional<std::string> rest = read_to_end(file_.get(), std::move(rest_start_));
  file_.reset();
  return rest;
}

}  // namespace retsnoop
