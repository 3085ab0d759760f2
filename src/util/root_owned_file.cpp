#include "util/root_owned_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "util/error.h"
#include "util/regular_file.h"
#include "util/text_escape.h"

namespace retsnoop {

namespace {

struct FreeDeleter {
  void operator()(char* p) const { std::free(p); }
};

// The status of fd, or UserError.
struct stat stat_of(int fd, const std::string& error_prefix) {
  struct stat st;
  if (fstat(fd, &st) != 0) throw UserError(error_prefix + ": " + std::strerror(errno));
  return st;
}

void require_root_writer(int fd, const std::string& shown, const std::string& error_prefix) {
  std::string who = non_root_writer(stat_of(fd, error_prefix));
  if (!who.empty())
    throw UserError(error_prefix + ": not trusted, '" + escaped(shown) + "' " + who);
}

}  // namespace

std::string non_root_writer(const struct stat& st) {
  if (st.st_uid != 0) return "belongs to uid " + std::to_string(st.st_uid) + ", not root";
  if (S_ISDIR(st.st_mode) && (st.st_mode & S_ISVTX)) return {};
  if (st.st_mode & S_IWGRP) return "is writable by its group";
  if (st.st_mode & S_IWOTH) return "is writable by others";
  return {};
}

OwnedFd open_root_owned_file(const std::string& path, const std::string& error_prefix) {
  std::unique_ptr<char, FreeDeleter> resolved(realpath(path.c_str(), nullptr));
  if (!resolved) throw UserError(error_prefix + ": " + std::strerror(errno));
  std::string full = resolved.get(), shown = "/";
  OwnedFd dir(open("/", O_PATH | O_DIRECTORY | O_CLOEXEC));
  if (!dir) throw UserError(error_prefix + ": " + std::strerror(errno));
  require_root_writer(dir.get(), shown, error_prefix);
  // Each directory is checked before its entries are looked up: only root could swap them.
  for (size_t start = 1, slash; (slash = full.find('/', start)) != std::string::npos;
       start = slash + 1) {
    std::string name = full.substr(start, slash - start);
    dir = OwnedFd(openat(dir.get(), name.c_str(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    shown = full.substr(0, slash);
    if (!dir) throw UserError(error_prefix + ": '" + escaped(shown) + "': " + std::strerror(errno));
    require_root_writer(dir.get(), shown, error_prefix);
  }
  std::string base = full.substr(full.rfind('/') + 1);
  OwnedFd fd(openat(dir.get(), base.c_str(), O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC));
  if (!fd) throw UserError(error_prefix + ": " + std::strerror(errno));
  if (const char* kind = irregular_file_kind(stat_of(fd.get(), error_prefix).st_mode))
    throw UserError(error_prefix + ": " + kind + ", not a regular file");
  require_root_writer(fd.get(), full, error_prefix);
  return fd;
}

}  // namespace retsnoop
