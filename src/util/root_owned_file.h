// Files retsnoop trusts as root's own: the vmlinux image, which libdw parses in retsnoop's
// process, as root. A file another user can change, or whose path another user can redirect
// (a build tree in a home directory behind /lib/modules/R/build), must not feed that parser.
#pragma once

#include <sys/stat.h>

#include <string>

#include "util/owned_fd.h"

namespace retsnoop {

// Why a file or directory of this status could be changed by someone but root: "belongs to uid
// 1000, not root", "is writable by its group", "is writable by others"; empty when only root can.
// A sticky directory (/tmp) counts as root's when root owns it: there only an entry's owner can
// remove or replace it.
std::string non_root_writer(const struct stat& st);

// path opened for reading when it is a regular file and it and every directory of its resolved
// path (symlinks followed, then each component opened without following any) are root's by
// non_root_writer(). O_NONBLOCK, as open_regular_file(). Throws UserError "<error_prefix>:
// <reason>", the reason naming (escaped: another user may have named it) the first file or
// directory that is not root's.
OwnedFd open_root_owned_file(const std::string& path, const std::string& error_prefix);

}  // namespace retsnoop
