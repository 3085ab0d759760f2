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
#include <thread>

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

constexpr mode_t kDirMode = 0700;
constexpr auto kLockRetry = std::chrono::milliseconds(20);

// Lock and state files decide what gets removed from the kernel: a directory that another
// user owns would let that user decide it.
const char* unsafe_reason(const struct stat& st) {
  if (!S_ISDIR(st.st_mode)) return "not a directory";
  if (st.st_uid != 0 && st.st_uid != geteuid()) return "owned by another user than root; remove it";
  return nullptr;
}

// Any other user who can open the directory can hold its lock or a run's lock file: a stalled
// start or stop, or a dead run that looks alive forever.
bool make_private(int fd, const std::string& path, const struct stat& st) {
  if ((st.st_mode & 07777) == kDirMode) return true;
  if (fchmod(fd, kDirMode) != 0) {
    logf(LOG_WARN, "not using %s: mode %04o, and cannot set 0700: %s\n", path.c_str(),
         unsigned(st.st_mode & 07777), std::strerror(errno));
    return false;
  }
  logf(LOG_INFO, "%s: mode %04o set to 0700\n", path.c_str(), unsigned(st.st_mode & 07777));
  return true;
}

}  // namespace

std::optional<RunStateDir> RunStateDir::open(const std::string& path, bool create,
                                             std::chrono::milliseconds lock_wait) {
  if (create && mkdir(path.c_str(), kDirMode) != 0 && errno != EEXIST) {
    logf(LOG_INFO, "%s: cannot create: %s\n", path.c_str(), std::strerror(errno));
    return std::nullopt;
  }
  OwnedFd fd(::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  if (!fd) {
    if (errno != ENOENT)
      logf(LOG_WARN, "not using %s: cannot open: %s\n", path.c_str(), std::strerror(errno));
    return std::nullopt;
  }
  struct stat st;
  if (fstat(fd.get(), &st) != 0) return std::nullopt;
  if (const char* why = unsafe_reason(st)) {
    logf(LOG_WARN, "not using %s: %s\n", path.c_str(), why);
    return std::nullopt;
  }
  if (!make_private(fd.get(), path, st)) return std::nullopt;
  return RunStateDir(path, std::move(fd), st.st_uid, lock_wait);
}

std::optional<RunStateDir::Guard> RunStateDir::lock(std::string_view without) const {
  auto deadline = std::chrono::steady_clock::now() + lock_wait_;
  while (flock(fd_.get(), LOCK_EX | LOCK_NB) != 0) {
    if ((errno != EWOULDBLOCK && errno != EINTR) || std::chrono::steady_clock::now() >= deadline) {
      logf(LOG_WARN, "%s stayed locked by another process for %.1f s: %.*s\n", path_.c_str(),
           std::chrono::duration<double>(lock_wait_).count(), int(without.size()), without.data());
      return std::nullopt;
    }
    std::this_thread::sleep_for(kLockRetry);
  }
  return Guard(fd_.get());
}

RunStateDir::Guard::~Guard() {
  if (fd_ >= 0) flock(fd_, LOCK_UN);
}

OwnedFd RunStateDir::open_file(const std::string& name) const {
  OwnedFd fd(openat(fd_.get(), name.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
  struct stat st;
  if (!fd || fstat(fd.get(), &st) != 0) return OwnedFd();
  if (!S_ISREG(st.st_mode) || st.st_uid != owner_ || (st.st_mode & (S_IWGRP | S_IWOTH))) {
    logf(LOG_INFO, "ignoring %s/%s: not a regular file of the directory's owner\n", path_.c_str(),
         name.c_str());
    return OwnedFd();
  }
  return fd;
}

OwnedFd RunStateDir::create_file(const std::string& name) const {
  return OwnedFd(
      openat(fd_.get(), name.c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600));
}

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
  OwnedFd fd = dir.open_file(lock_name(id));
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
  auto guard = dir->lock("this run goes unregistered: kprobe events it leaves if killed stay");
  if (!guard) return;
  path_ = dir->path() + "/" + lock_name(id_);
  OwnedFd fd = dir->create_file(lock_name(id_));
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
