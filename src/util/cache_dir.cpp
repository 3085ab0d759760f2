#include "util/cache_dir.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <random>

#include "util/log.h"
#include "util/regular_file.h"

namespace retsnoop {

namespace {

// A distribution kernel's compile unit index is a few MB.
constexpr size_t kMaxCacheFileSize = 256 << 20;

const char* foreign_or_shared_reason(const struct stat& st, uid_t euid) {
  if (st.st_uid != euid) return "owned by another user";
  if (st.st_mode & (S_IWGRP | S_IWOTH)) return "writable by group or others";
  return nullptr;
}

// Unpredictable, so that nobody can plant anything under the name beforehand.
std::string temporary_name(const std::string& name) {
  std::random_device rd;
  uint64_t r = (uint64_t(rd()) << 32) | rd();
  char suffix[24];
  std::snprintf(suffix, sizeof(suffix), ".%016" PRIx64, r);
  return "." + name + suffix + ".tmp";
}

// Writes all of content, makes the mode exact whatever the umask, and forces the data to disk
// before the file gets its name: a crash then leaves the old file or the whole new one.
bool fill(int fd, std::string_view content) {
  for (size_t done = 0; done < content.size();) {
    ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return false;
    done += n;
  }
  return fchmod(fd, 0644) == 0 && fsync(fd) == 0;
}

}  // namespace

std::string cache_dir_location(uid_t euid, const char* xdg_cache_home, const char* home) {
  if (euid == 0) return "/var/cache/retsnoop";
  // Joined as paths: HOME is "/" for init and its children ("//.cache" looks like a typo).
  if (xdg_cache_home && *xdg_cache_home) return std::filesystem::path(xdg_cache_home) / "retsnoop";
  if (home && *home) return std::filesystem::path(home) / ".cache/retsnoop";
  return {};
}

std::string default_cache_dir() {
  return cache_dir_location(geteuid(), std::getenv("XDG_CACHE_HOME"), std::getenv("HOME"));
}

const char* unsafe_cache_dir_reason(const struct stat& st, uid_t euid) {
  if (!S_ISDIR(st.st_mode)) return "not a directory";
  return foreign_or_shared_reason(st, euid);
}

const char* unsafe_cache_file_reason(const struct stat& st, uid_t euid) {
  if (!S_ISREG(st.st_mode)) return "not a regular file";
  return foreign_or_shared_reason(st, euid);
}

OwnedFd create_exclusive(int dir_fd, const std::string& name) {
  return OwnedFd(
      openat(dir_fd, name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644));
}

std::optional<CacheDir> CacheDir::open(const std::string& path) {
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
  if (mkdir(path.c_str(), 0755) != 0 && errno != EEXIST) {
    logf(LOG_DEBUG, "not caching: cannot create %s: %s\n", path.c_str(), std::strerror(errno));
    return std::nullopt;
  }
  struct stat st;
  if (lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode)) {
    logf(LOG_DEBUG, "not caching in %s: a symbolic link\n", path.c_str());
    return std::nullopt;
  }
  // The checks apply to what the descriptor holds, whatever the path names by now.
  OwnedFd fd(::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  const char* why = !fd || fstat(fd.get(), &st) != 0 ? std::strerror(errno)
                                                     : unsafe_cache_dir_reason(st, geteuid());
  if (why) {
    logf(LOG_DEBUG, "not caching in %s: %s\n", path.c_str(), why);
    return std::nullopt;
  }
  return CacheDir(path, std::move(fd));
}

std::optional<std::string> CacheDir::read(const std::string& name) const {
  OwnedFd fd(openat(fd_.get(), name.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
  if (!fd && errno == ENOENT) return std::nullopt;
  struct stat st;
  const char* why = !fd || fstat(fd.get(), &st) != 0 ? std::strerror(errno)
                                                     : unsafe_cache_file_reason(st, geteuid());
  std::optional<std::string> text;
  if (!why && !(text = read_at_most(fd.get(), kMaxCacheFileSize))) why = std::strerror(errno);
  if (why) logf(LOG_DEBUG, "ignoring cache file %s/%s: %s\n", path_.c_str(), name.c_str(), why);
  return text;
}

bool CacheDir::write(const std::string& name, std::string_view content) const {
  OwnedFd fd = create_unnamed();
  // Filesystems without O_TMPFILE say EOPNOTSUPP; kernels before 3.11 see O_DIRECTORY in it.
  bool ok = fd ? fill(fd.get(), content) && publish_unnamed(fd.get(), name)
               : (errno == EOPNOTSUPP || errno == EISDIR) && write_named(name, content);
  if (!ok)
    logf(LOG_DEBUG, "cannot write cache file %s/%s: %s\n", path_.c_str(), name.c_str(),
         std::strerror(errno));
  return ok;
}

OwnedFd CacheDir::create_unnamed() const {
  return OwnedFd(openat(fd_.get(), ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, 0644));
}

// linkat() never replaces a name, so the old file goes first; a reader in between finds no file
// and rebuilds. The /proc/self/fd path links the open file without CAP_DAC_READ_SEARCH, which
// AT_EMPTY_PATH needs.
bool CacheDir::publish_unnamed(int fd, const std::string& name) const {
  if (unlinkat(fd_.get(), name.c_str(), 0) != 0 && errno != ENOENT) return false;
  std::string self = "/proc/self/fd/" + std::to_string(fd);
  return linkat(AT_FDCWD, self.c_str(), fd_.get(), name.c_str(), AT_SYMLINK_FOLLOW) == 0;
}

bool CacheDir::write_named(const std::string& name, std::string_view content) const {
  std::string tmp = temporary_name(name);
  OwnedFd fd = create_exclusive(fd_.get(), tmp);
  if (fd && fill(fd.get(), content) &&
      renameat(fd_.get(), tmp.c_str(), fd_.get(), name.c_str()) == 0)
    return true;
  int err = errno;
  if (fd) unlinkat(fd_.get(), tmp.c_str(), 0);
  errno = err;
  return false;
}

}  // namespace retsnoop
