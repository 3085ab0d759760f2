#include "util/output_file.h"

#include <fcntl.h>
#include <sys/random.h>
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

std::string dir_of(const std::string& path) {
  size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

// The template's Xs replaced by random letters and digits.
std::string random_name(std::string name) {
  static constexpr char kChars[] = "abcdefghijklmnopqrstuvwxyz0123456789";
  unsigned char bytes[6] = {};
  if (getrandom(bytes, sizeof(bytes), 0) != sizeof(bytes)) return name;
  for (size_t i = 0; i < sizeof(bytes); ++i)
    name[name.size() - sizeof(bytes) + i] = kChars[bytes[i] % (sizeof(kChars) - 1)];
  return name;
}

// A name for the unnamed file, next to path; linkat() creates it exclusively, so a name someone
// took meanwhile is never replaced. AT_EMPTY_PATH needs CAP_DAC_READ_SEARCH; /proc does not.
int link_unnamed(int fd, const std::string& tmpl, std::string& name) {
  std::string proc = "/proc/self/fd/" + std::to_string(fd);
  for (int attempt = 0; attempt < 16; ++attempt) {
    std::string candidate = random_name(tmpl);
    int rc = linkat(fd, "", AT_FDCWD, candidate.c_str(), AT_EMPTY_PATH);
    if (rc != 0 && errno != EEXIST)
      rc = linkat(AT_FDCWD, proc.c_str(), AT_FDCWD, candidate.c_str(), AT_SYMLINK_FOLLOW);
    if (rc == 0) {
      name = candidate;
      return 0;
    }
    if (errno != EEXIST) return -errno;
  }
  return -EEXIST;
}

// An unnamed file in path's directory (O_TMPFILE): nothing of it shows there until close(). A
// file system without O_TMPFILE gets a named one (O_CREAT | O_EXCL) for the whole run.
OwnedFd create_temp(const std::string& path, std::string& temp_path) {
  OwnedFd fd(open(dir_of(path).c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600));
  if (fd || (errno != EOPNOTSUPP && errno != EISDIR)) return fd;
  std::string name = temp_template(path);
  fd = OwnedFd(mkostemp(name.data(), O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK));
  if (fd) temp_path = name;
  return fd;
}

}  // namespace

OutputFile::OutputFile(const std::string& path) : path_(path) {
  check_target(path);
  OwnedFd fd = create_temp(path, temp_path_);
  if (!fd) cannot_write(path, std::strerror(errno));
  std::FILE* f = fdopen(fd.get(), "w");
  if (!f) {
    int err = errno;
    if (!temp_path_.empty()) unlink(temp_path_.c_str());
    cannot_write(path, std::strerror(err));
  }
  fd.release();
  file_.reset(f);
}

OutputFile::~OutputFile() {
  if (!file_) return;
  file_.reset();
  if (!temp_path_.empty()) unlink(temp_path_.c_str());
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
  if (ok && temp_path_.empty()) {
    err = -link_unnamed(fileno(f), temp_template(path_), temp_path_);
    ok = err == 0;
  }
  if (std::fclose(f) != 0 && ok) {
    ok = false;
    err = errno;
  }
  if (ok && rename(temp_path_.c_str(), path_.c_str()) != 0) {
    ok = false;
    err = errno;
  }
  if (ok) return true;
  if (!temp_path_.empty()) unlink(temp_path_.c_str());
  logf(LOG_ERROR, "cannot write %s: %s\n", path_.c_str(), err ? std::strerror(err) : "write error");
  return false;
}

bool OutputFile::close() {
  if (!file_) return true;
  return finish(file_.release());
}

}  // namespace retsnoop
