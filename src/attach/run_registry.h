// Which retsnoop runs are alive. Kernel state that outlives a killed process (tracefs kprobe
// events, a flipped sysfs knob) is named after the run that made it, and only the state of a
// dead run may be cleaned up by another. A PID cannot tell: it is reused, a zombie still has
// one, and a run in another PID namespace may have the same one. So every run that may leave
// such state holds an exclusive flock on <dir>/<id>.lock, under a random id, for its whole
// life: the kernel drops the lock when the process dies however it dies, and any process that
// sees the same file (another PID namespace included) can test it.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "util/owned_fd.h"

namespace retsnoop {

inline const std::string kRunStateDir = "/run/retsnoop";
// How long a run waits for the directory's lock. Its holders keep it for a few file operations,
// or while they remove the kprobe events of a dead run; a process that keeps it longer (one
// that opened the directory before it was made private) must not stall a start or a stop.
inline constexpr std::chrono::milliseconds kRunStateLockWait{5000};

// The directory of lock and state files, opened after checking that it is safe to trust: a
// directory, not a symlink, owned by root (or by us), mode 0700 (set when it was not), so that
// no other user can open it, let alone lock it or a file in it.
class RunStateDir {
 public:
  // create: make it (mode 0700) when missing. nullopt when it is missing and not created, or
  // unsafe (a warning says why). lock_wait bounds every wait for its lock.
  static std::optional<RunStateDir> open(const std::string& path, bool create,
                                         std::chrono::milliseconds lock_wait = kRunStateLockWait);

  const std::string& path() const { return path_; }
  int fd() const { return fd_.get(); }

  // Holds the directory's flock while alive: every change to the state files happens under it.
  class Guard {
   public:
    ~Guard();
    Guard(Guard&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
    Guard(const Guard&) = delete;
    Guard& operator=(const Guard&) = delete;
    Guard& operator=(Guard&&) = delete;

   private:
    friend class RunStateDir;
    explicit Guard(int fd) : fd_(fd) {}
    int fd_;
  };
  // The directory's lock, waited for at most lock_wait; nullopt when another process held it
  // all along, after a warning that names the directory and ends with without: what the caller
  // does without it.
  std::optional<Guard> lock(std::string_view without) const;

  // The regular file name in the directory, opened for reading without following a link, when
  // it is owned by the directory's owner and writable by nobody else; else an invalid fd.
  OwnedFd open_file(const std::string& name) const;
  // A new file name, mode 0600, opened for reading and writing; invalid fd (errno set) when the
  // name exists.
  OwnedFd create_file(const std::string& name) const;

 private:
  RunStateDir(std::string path, OwnedFd fd, uid_t owner, std::chrono::milliseconds lock_wait)
      : path_(std::move(path)), fd_(std::move(fd)), owner_(owner), lock_wait_(lock_wait) {}

  std::string path_;
  OwnedFd fd_;
  uid_t owner_;
  std::chrono::milliseconds lock_wait_;
};

enum class Liveness {
  Alive,    // its lock is held
  Dead,     // its lock file is there and nobody holds it
  Unknown,  // no lock file here: a run under another /run (a container), or never registered
};

Liveness run_liveness(const RunStateDir& dir, std::string_view id);
// Removes the lock file of a dead run, once its state is cleaned up.
void forget_run(const RunStateDir& dir, std::string_view id);

// Ids are 12 lower-case hex digits.
bool is_run_id(std::string_view id);
// The run id a file of the state directory is the lock file of; nullopt for any other file.
std::optional<std::string> lock_file_run_id(std::string_view file_name);

// This run's registration: a fresh random id and its held lock file, removed at destruction
// unless the run could not remove its kernel state.
class RunLock {
 public:
  // The id is random even without a usable directory (dir null), so that names never collide;
  // the run is then unknown to others (Liveness::Unknown), who leave its state alone.
  explicit RunLock(const RunStateDir* dir);
  ~RunLock();
  RunLock(const RunLock&) = delete;
  RunLock& operator=(const RunLock&) = delete;

  const std::string& id() const { return id_; }
  bool registered() const { return bool(lock_fd_); }

  // Some kernel state of this run could not be removed: the lock file then stays when the run
  // ends, unlocked, so that later runs judge the state a dead run's and remove it. Without the
  // file they could not tell it from a live run's in another mount namespace, and would leave it.
  void keep_until_cleaned() { clean_ = false; }

 private:
  std::string id_;
  std::string path_;
  OwnedFd lock_fd_;
  bool clean_ = true;
};

}  // namespace retsnoop
