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
// symlinks all stay under root_dir and /proc magic links are refused. O_NONBLOCK, so that a
// FIFO cannot make the open wait for a writer; only a regular file is returned. Otherwise an
// invalid OwnedFd and errno: ENOSYS on a kernel without openat2, EINVAL when the file is not
// regular, or what openat2() said.
OwnedFd open_regular_in_root(int root_dir, const std::string& path);

}  // namespace retsnoop
