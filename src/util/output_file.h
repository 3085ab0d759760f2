// A file retsnoop writes besides standard output (--export-trace, --export-folded). Opened at
// start, so that a path that can't be written stops the run before anything is attached; write
// errors are only reported at close, since a run that traces must not die for a side file.
// retsnoop runs as root and the path may lie in a directory other users write to: the content
// goes to a new file of its own in path's directory, unnamed (O_TMPFILE) until close() gives it a
// name (created exclusively, so never through a link someone planted) and moves it over path.
// Whoever reads path sees the old file or the complete new one; path itself must be a regular
// file when it exists. The file is 0600: traces name other users' processes and files.
#pragma once

#include <cstdio>
#include <memory>
#include <string>
#include <string_view>

namespace retsnoop {

class OutputFile {
 public:
  // Creates the file that will replace path. Throws UserError when path exists and is not a
  // regular file (a symlink, a FIFO, a device, a directory) or when its directory can't take it.
  explicit OutputFile(const std::string& path);
  // Without close(), path stays as it was and the new file is removed.
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  void write(std::string_view text);
  // Flushes the new file and puts it in path's place; false with a warning on stderr when some
  // write failed (the new file is then left out and path stays as it was).
  bool close();

 private:
  struct Closer {
    void operator()(std::FILE* f) const { std::fclose(f); }
  };
  bool finish(std::FILE* f);

  std::string path_;
  std::string temp_path_;  // empty while the file is unnamed
  std::unique_ptr<std::FILE, Closer> file_;
};

}  // namespace retsnoop
