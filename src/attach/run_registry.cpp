#include "attach/run_registry.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>

#include "util/log.h"

namespace retsnoop {

namespace {

constexpr size_t kIdBytes = 6;
constexpr std::string_view kLockSuffix = ".lock";

std::string lock_name(std::string_view id) { return std::string(id) + std::string(kLockSuffix); }

std::string random_id() {
  unsigned char bytes[kIdBytes] = {};
  if (getrandom(bytes, sizeof(bytes), 0) != ssize_t(sizeof(bytes))) {
    // Without the entropy pool, time and PID still make a collision unlikely.
    uint64_t mix = uint64_t(getpid()) * 0x9e3779b97f4a7c15ull ^ uint64_t(time(nullptr));
    std::memcpy(bytes, &mix, sizeof(bytes));
  }
  std::string id;
  char hex[3];
  for (unsigned char b : bytes) {
    std::snprintf(hex, sizeof(hex), "%02x", b);
    id += hex;
  }
  return id;
}

// Lock and state files decide what gets removed from the kernel: a directory that another
// user could write to would let that user decide it.
const char* unsafe_reason(const struct stat& st) {
  if (!S_ISDIR(st.st_mode)) return "not a directory";
  if (st.st_uid != 0 && st.st_uid != geteuid()) return "owned by another user";
  if (st.st_mode & (S_IWGRP | S_IWOTH)) return "writable by other users";
  return nullptr;
}

}  // namespace

std::optional<RunStateDir> RunStateDir::open(const std::string& path, bool create) {
  if (create && mkdir(path.c_str(), 0755) != 0 && errno != EEXIST) {
    logf(LOG_INFO, "%s: cannot create: %s\n", path.c_str(), std::strerror(errno));
    return std::nullopt;
  }
  OwnedFd fd(::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  if (!fd) {
    if (errno != ENOENT)
      logf(LOG_INFO, "%s: cannot open: %s\n", path.c_str(), std::strerror(errno));
    return std::nullopt;
  }
  struct stat st;
  if (fstat(fd.get(), &st) != 0) return std::nullopt;
  if (const char* why = unsafe_reason(st)) {
    logf(LOG_WARN, "not using %s: %s\n", path.c_str(), why);
    return std::nullopt;
  }
  return RunStateDir(path, std::move(fd));
}

RunStateDir::Guard::Guard(const RunStateDir& dir) : fd_(dir.fd()) {
  while (flock(fd_, LOCK_EX) != 0 && errno == EINTR) {
  }
}

RunStateDir::Guard::~Guard() { flock(fd_, LOCK_UN); }

bool is_run_id(std::string_view id) {
  return id.size() == 2 * kIdBytes && std::all_of(id.begin(), id.end(), [](char c) {
           return std::isxdigit(c) && !std::isupper(c);
         });
}

std::optional<std::string> lock_file_run_id(std::string_view file_name) {
  if (!file_name.ends_with(kLockSuffix)) return std::nullopt;
  std::string_view id = file_name.substr(0, file_name.size() - kLockSuffix.size());
  if (!is_run_id(id)) return std::nullopt;
  return std::string(id);
}

Liveness run_liveness(const RunStateDir& dir, std::string_view id) {
  if (!is_run_id(id)) return Liveness::Unknown;
  OwnedFd fd(openat(dir.fd(), lock_name(id).c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC));
  if (!fd) return Liveness::Unknown;
  if (flock(fd.get(), LOCK_SH | LOCK_NB) != 0) return Liveness::Alive;
  return Liveness::Dead;
}

void forget_run(const RunStateDir& dir, std::string_view id) {
  if (is_run_id(id)) unlinkat(dir.fd(), lock_name(id).c_str(), 0);
}

RunLock::RunLock(const RunStateDir* dir) : id_(random_id()) {
  if (!dir) return;
  // Created and locked under the directory lock: a cleaner judging liveness meanwhile would
  // take a created but not yet locked file for a dead run's.
  RunStateDir::Guard guard(*dir);
  path_ = dir->path() + "/" + lock_name(id_);
  OwnedFd fd(openat(dir->fd(), lock_name(id_).c_str(),
                    O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644));
  if (!fd || flock(fd.get(), LOCK_EX | LOCK_NB) != 0) {
    logf(LOG_INFO, "%s: cannot create and lock: %s\n", path_.c_str(), std::strerror(errno));
    if (fd) unlink(path_.c_str());
    return;
  }
  lock_fd_ = std::move(fd);
}

// Unlinked before the lock goes: a dead run's file is only ever removed by the run that
// cleans up after it.
RunLock::~RunLock() {
  if (lock_fd_ && clean_) unlink(path_.c_str());
}

}  // namespace retsnoop
