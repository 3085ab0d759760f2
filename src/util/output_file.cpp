#include "util/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "util/error.h"
#include "util/log.h"
#include "util/owned_fd.h"
#include "util/regular_file.h"

namespace retsnoop {
namespace {

[[noreturn]] void cannot_write(const std::string& path, const std::string& reason) {
  throw UserError("cannot write " + path + ": " + reason);
}

// A symlink would be replaced, not followed; refusing it (and anything else that is not a
// regular file) keeps the rule of every file retsnoop opens: a regular file or nothing.
void check_target(const std::string& path) {
  struct stat st;
  if (lstat(path.c_str(), &st) != 0) {
    if (errno != ENOENT) cannot_write(path, std::strerror(errno));
    return;
  }
  const char* kind = S_ISLNK(st.st_mode) ? "a symbolic link" : irregular_file_kind(st.st_mode);
  if (kind) cannot_write(path, std::string(kind) + ", not a regular file");
}

// "dir/.name.XXXXXX" next to path: rename() replaces atomically only within one file system.
std::string temp_template(const std::string& path) {
  size_t slash = path.rfind('/');
  size_t base = slash == std::string::npos ? 0 : slash + 1;
  return path.substr(0, base) + "." + path.substr(base) + ".XXXXXX";
}

// The mode fopen() would have given the file; mkostemp() makes it 0600.
mode_t default_mode() {
  mode_t mask = umask(0);
  umask(mask);
  return 0666 & ~mask;
}

}  // namespace

OutputFile::OutputFile(const std::string& path) : path_(path) {
  check_target(path);
  std::string name = temp_template(path);
  // O_CREAT | O_EXCL: a new file, never an existing one or a link someone planted.
  OwnedFd fd(mkostemp(name.data(), O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK));
  if (!fd) cannot_write(path, std::strerror(errno));
  temp_path_ = name;
  std::FILE* f = fchmod(fd.get(), default_mode()) == 0 ? fdopen(fd.get(), "w") : nullptr;
  if (!f) {
    int err = errno;
    unlink(temp_path_.c_str());
    cannot_write(path, std::strerror(err));
  }
  fd.release();
  file_.reset(f);
}

OutputFile::~OutputFile() {
  if (!file_) return;
  file_.reset();
  unlink(temp_path_.c_str());
}

void OutputFile::write(std::string_view text) {
  if (file_) std::fwrite(text.data(), 1, text.size(), file_.get());
}

// fflush() and fclose() say why they failed; a write that failed earlier (the error flag) no
// longer can.
bool OutputFile::finish(std::FILE* f) {
  errno = 0;
  bool ok = std::fflush(f) == 0 && !std::ferror(f) && fsync(fileno(f)) == 0;
  int err = errno;
  if (std::fclose(f) != 0 && ok) {
    ok = false;
    err = errno;
  }
  if (ok && rename(temp_path_.c_str(), path_.c_str()) != 0) {
    ok = false;
    err = errno;
  }
  if (ok) return true;
  unlink(temp_path_.c_str());
  logf(LOG_ERROR, "cannot write %s: %s\n", path_.c_str(), err ? std::strerror(err) : "write error");
  return false;
}

bool OutputFile::close() {
  if (!file_) return true;
  return finish(file_.release());
}

}  // namespace retsnoop
