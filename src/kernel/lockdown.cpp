#include "kernel/lockdown.h"

#include <fcntl.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>

#include "util/errno_names.h"

namespace retsnoop {

namespace {

constexpr std::string_view kModeNames[] = {"none", "integrity", "confidentiality"};

// The mode from the file, or -errno. No allocation: it also runs in a forked child.
int read_lockdown_file(const char* path) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -errno;
  char buf[128];
  ssize_t n = read(fd, buf, sizeof(buf));
  int err = errno;
  close(fd);
  return n < 0 ? -err : parse_lockdown(std::string_view(buf, static_cast<size_t>(n)));
}

// securityfs is often not mounted (minimal hosts, containers). A child mounts it in a private
// mount namespace of its own, so that the host's mounts stay as they were, and reads the mode.
int read_lockdown_privately(const char* path) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) return -errno;
  pid_t pid = fork();
  if (pid == 0) {
    int mode = -ENOENT;
    if (unshare(CLONE_NEWNS) == 0 &&
        mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) == 0 &&
        mount("securityfs", "/sys/kernel/security", "securityfs", 0, nullptr) == 0)
      mode = read_lockdown_file(path);
    _exit(write(fds[1], &mode, sizeof(mode)) == sizeof(mode) ? 0 : 1);
  }
  close(fds[1]);
  int mode = -ENOENT;
  if (pid > 0 && read(fds[0], &mode, sizeof(mode)) != sizeof(mode)) mode = -ENOENT;
  close(fds[0]);
  if (pid > 0) waitpid(pid, nullptr, 0);
  return mode;
}

}  // namespace

int parse_lockdown(std::string_view text) {
  for (size_t mode = 0; mode < std::size(kModeNames); ++mode) {
    size_t at = text.find(kModeNames[mode]);
    size_t end = at + kModeNames[mode].size();
    if (at != std::string_view::npos && at > 0 && text[at - 1] == '[' && end < text.size() &&
        text[end] == ']')
      return static_cast<int>(mode);
  }
  return -EINVAL;
}

int read_lockdown(const char* path) {
  int mode = read_lockdown_file(path);
  return mode == -ENOENT ? read_lockdown_privately(path) : mode;
}

std::string lockdown_text(int mode) {
  if (mode < 0) return "unknown (" + errno_text(-mode) + ")";
  if (mode >= static_cast<int>(std::size(kModeNames))) return "unknown";
  return std::string(kModeNames[mode]);
}

}  // namespace retsnoop
