#include "util/regular_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "util/error.h"

namespace retsnoop {

const char* irregular_file_kind(mode_t mode) {
  if (S_ISREG(mode)) return nullptr;
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISSOCK(mode)) return "a socket";
  return "a special file";
}

OwnedFd open_regular_file(const std::string& path, const std::string& error_prefix) {
  OwnedFd fd(open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
  if (!fd) throw UserError(error_prefix + ": " + std::strerror(errno));
  struct stat st;
  if (fstat(fd.get(), &st) != 0) throw UserError(error_prefix + ": " + std::strerror(errno));
  if (const char* kind = irregular_file_kind(st.st_mode))
    throw UserError(error_prefix + ": " + kind + ", not a regular file");
  return fd;
}

std::string read_regular_file(const std::string& path, size_t max_size,
                              const std::string& error_prefix) {
  OwnedFd fd = open_regular_file(path, error_prefix);
  std::optional<std::string> text = read_at_most(fd.get(), max_size);
  if (!text && errno == EFBIG)
    throw UserError(error_prefix + ": larger than " + std::to_string(max_size >> 20) + " MiB");
  if (!text) throw UserError(error_prefix + ": " + std::strerror(errno));
  return std::move(*text);
}

std::optional<std::string> read_at_most(int fd, size_t max_size) {
  std::string text;
  // One byte past the limit tells a file of exactly max_size bytes from a larger one.
  for (size_t chunk = 1 << 16; text.size() <= max_size;) {
    size_t used = text.size();
    text.resize(used + chunk);
    ssize_t n = read(fd, text.data() + used, chunk);
    text.resize(used + std::max<ssize_t>(n, 0));
    if (n == 0) return text;
    if (n < 0 && errno != EINTR) return std::nullopt;
  }
  errno = EFBIG;
  return std::nullopt;
}

}  // namespace retsnoop
