#include "util/root_confined_open.h"

#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <string>

namespace retsnoop {

OwnedFd reopen_for_reading(int path_fd) {
  struct stat st;
  if (fstat(path_fd, &st) != 0) return OwnedFd();
  if (!S_ISREG(st.st_mode)) {
    errno = EINVAL;
    return OwnedFd();
  }
  // The link names the very inode checked. O_NONBLOCK: a file another process holds a write
  // lease on would make the open wait for that process.
  std::string self = "/proc/self/fd/" + std::to_string(path_fd);
  return OwnedFd(open(self.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY));
}

OwnedFd open_regular_in_root(int root_dir, const std::string& path) {
  open_how how{};
  how.flags = O_PATH | O_CLOEXEC;
  how.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS;
  // glibc of the build hosts has no wrapper.
  OwnedFd path_fd(int(syscall(SYS_openat2, root_dir, path.c_str(), &how, sizeof(how))));
  if (!path_fd) return path_fd;
  return reopen_for_reading(path_fd.get());
}

}  // namespace retsnoop
