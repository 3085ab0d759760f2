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

// fflush() and fclose() say why they failed; a write that failed earlier (the error flag) no
// longer can.
bool OutputFile::close() {
  if (!file_) return true;
  std::FILE* f = file_.release();
  errno = 0;
  bool ok = std::fflush(f) == 0 && !std::ferror(f);
  int err = errno;
  if (std::fclose(f) != 0 && ok) {
    ok = false;
    err = errno;
  }
  if (!ok)
    std::fprintf(stderr, "retsnoop: writing %s failed: %s\n", path_.c_str(),
                 err ? std::strerror(err) : "write error");
  return ok;
}

}  // namespace retsnoop
