// Whole-file reads of the text files retsnoop parses (kallsyms, tracefs lists, procfs).
#pragma once

#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace retsnoop {

// The file's content, or nullopt with errno set. Works on procfs/tracefs files, whose size
// reads as zero, by reading until EOF.
std::optional<std::string> read_text_file(const std::string& path);

// A text file read in two steps: up to a given line now, the rest only when it is wanted. The file
// stays open in between.
class SplitTextFile {
 public:
  // nullopt with errno set when path can't be opened.
  static std::optional<SplitTextFile> open(const std::string& path);

  const std::string& path() const { return path_; }
  bool complete() const { return !file_; }
  // Up to and including the first line that ends with line_end, or the whole file when no line
  // does; nullopt with errno set on a read error.
  std::optional<std::string> read_through_line(std::string_view line_end);
  // What is left; empty when complete. nullopt with errno set on a read error.
  std::optional<std::string> read_rest();

 private:
  using File = std::unique_ptr<FILE, int (*)(FILE*)>;
  SplitTextFile(std::string path, File file) : path_(std::move(path)), file_(std::move(file)) {}

  std::string path_;
  File file_;
  std::string rest_start_;  // read past the line along with it
};

}  // namespace retsnoop
