// A file retsnoop writes besides standard output (--export-trace, --export-folded). Opened at
// start, so that a path that can't be written stops the run before anything is attached; write
// errors are only reported at close, since a run that traces must not die for a side file.
#pragma once

#include <cstdio>
#include <memory>
#include <string>
#include <string_view>

namespace retsnoop {

class OutputFile {
 public:
  // Creates or truncates path. Throws UserError when it can't.
  explicit OutputFile(const std::string& path);

  void write(std::string_view text);
  // Flushes and closes; false with a warning on stderr when some write failed.
  bool close();

 private:
  struct Closer {
    void operator()(std::FILE* f) const { std::fclose(f); }
  };
  std::string path_;
  std::unique_ptr<std::FILE, Closer> file_;
};

}  // namespace retsnoop
