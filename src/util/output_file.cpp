#include "util/output_file.h"

#include <cerrno>
#include <cstring>

#include "util/error.h"

namespace retsnoop {

OutputFile::OutputFile(const std::string& path)
    : path_(path), file_(std::fopen(path.c_str(), "we")) {
  if (!file_) throw UserError("cannot write " + path + ": " + std::strerror(errno));
}

void OutputFile::write(std::string_view text) {
  if (file_) std::fwrite(text.data(), 1, text.size(), file_.get());
}

bool OutputFile::close() {
  if (!file_) return true;
  bool ok = std::fflush(file_.get()) == 0 && !std::ferror(file_.get());
  int err = errno;
  ok = std::fclose(file_.release()) == 0 && ok;
  if (!ok)
    std::fprintf(stderr, "retsnoop: writing %s failed: %s\n", path_.c_str(),
                 std::strerror(err ? err : errno));
  return ok;
}

}  // namespace retsnoop
