#include "util/root_confined_open.h"

#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>

namespace retsnoop {

OwnedFd open_regular_in_root(int root_dir, const std::string& path) {
  open_how how{};
  how.flags = O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY;
  how.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS;
  // glibc of the build hosts has no wrapper.
  OwnedFd fd(int(syscall(SYS_openat2, root_dir, path.c_str(), &how, sizeof(how))));
  if (!fd) return fd;
  struct stat st;
  if (fstat(fd.get(), &st) != 0) return OwnedFd();
  if (!S_ISREG(st.st_mode)) {
    errno = EINVAL;
    return OwnedFd();
  }
  return fd;
}

}  // namespace retsnoop
