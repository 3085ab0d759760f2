// Files other users control, opened by their path inside a root of theirs (a container's, a
// process's in another mount namespace). Opened as /proc/PID/root + path, an absolute symlink
// in there would resolve against retsnoop's own /, ".." could climb out, and a FIFO or a device
// node would be opened by root.
#pragma once

#include <string>

#include "util/owned_fd.h"

namespace retsnoop {

// path, as a process whose root is the directory root_dir sees it, opened for reading with
// openat2() RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS (Linux 5.6): "..", absolute and relative
// symlinks all stay under root_dir and /proc magic links are refused. Only a regular file is
// opened (see reopen_for_reading()). Otherwise an invalid OwnedFd and errno: ENOSYS on a kernel
// without openat2, EINVAL when the file is not regular, or what openat2() said.
OwnedFd open_regular_in_root(int root_dir, const std::string& path);

// The file of path_fd, an O_PATH descriptor, opened for reading when it is a regular file; else
// an invalid OwnedFd and errno (EINVAL: not a regular file). Opening a FIFO would wait for a
// writer, and opening a device node can act on the device: neither is ever opened.
OwnedFd reopen_for_reading(int path_fd);

}  // namespace retsnoop
