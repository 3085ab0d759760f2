// A cache directory that retsnoop, usually running as root, can write into without letting
// another user redirect the writes: the directory and every file in it must belong to the
// effective user and be writable by nobody else, and every operation goes through the directory's
// file descriptor, so a path swapped after the checks (a planted symlink) is never followed.
#pragma once

#include <sys/stat.h>

#include <optional>
#include <string>
#include <string_view>

#include "util/owned_fd.h"

namespace retsnoop {

// Where the caches of a process running as euid live: /var/cache/retsnoop for root, whose
// environment may be the invoking user's ('sudo -E' keeps XDG_CACHE_HOME and HOME); else
// ${XDG_CACHE_HOME:-$HOME/.cache}/retsnoop. Empty when no location is known. Null variables are
// unset ones.
std::string cache_dir_location(uid_t euid, const char* xdg_cache_home, const char* home);

// cache_dir_location() of this process.
std::string default_cache_dir();

// Why a directory with this status is unfit to hold the caches of euid (not a directory, owned by
// another user, writable by group or others); nullptr when it is fit.
const char* unsafe_cache_dir_reason(const struct stat& st, uid_t euid);

// Why a file with this status can't be trusted as a cache of euid; nullptr when it can.
const char* unsafe_cache_file_reason(const struct stat& st, uid_t euid);

// name created in dir_fd for writing, mode 0644, only if nothing (not even a dangling symlink)
// is there yet. Invalid with errno set otherwise.
OwnedFd create_exclusive(int dir_fd, const std::string& name);

class CacheDir {
 public:
  // The directory at path, created with mode 0755 (its parents too) when missing. nullopt when
  // it is a symlink or unsafe_cache_dir_reason() refuses it; the reason is logged at -vv, since
  // running without a cache only costs time.
  static std::optional<CacheDir> open(const std::string& path);

  const std::string& path() const { return path_; }
  // The content of name; nullopt when it is missing, is not a regular file, or
  // unsafe_cache_file_reason() refuses it (logged at -vv).
  std::optional<std::string> read(const std::string& name) const;
  // Replaces name with content, which readers see whole or not at all; false, logged at -vv,
  // when it can't.
  bool write(const std::string& name, std::string_view content) const;

 private:
  CacheDir(std::string path, OwnedFd fd) : path_(std::move(path)), fd_(std::move(fd)) {}

  OwnedFd create_unnamed() const;
  bool publish_unnamed(int fd, const std::string& name) const;
  bool write_named(const std::string& name, std::string_view content) const;

  std::string path_;
  OwnedFd fd_;
};

}  // namespace retsnoop
