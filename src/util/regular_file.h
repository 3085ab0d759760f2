// Files named by the user (@FILE lists, -k vmlinux) are read only when they are regular files:
// a FIFO blocks, /dev/zero never ends and a directory has no content, and any of them would
// otherwise hang retsnoop or exhaust its memory. Lists are also bounded in size.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <optional>
#include <string>

#include "util/owned_fd.h"

namespace retsnoop {

// Every function name the kernel has (some 90,000 of them, about 3 MB) fits in an @FILE list
// several times over; a larger one is a mistake.
inline constexpr size_t kMaxListFileSize = 16 << 20;

// What a file of this mode is when it is not a regular file ("a FIFO", "a character device"...);
// nullptr for a regular file.
const char* irregular_file_kind(mode_t mode);

// path opened for reading. O_NONBLOCK: opening a FIFO without a writer would wait for one.
// Throws UserError "<error_prefix>: <reason>" when it can't be opened or is not a regular file.
OwnedFd open_regular_file(const std::string& path, const std::string& error_prefix);

// The content of the regular file at path, of at most max_size bytes. Throws UserError
// "<error_prefix>: <reason>" otherwise ("larger than 16 MiB").
std::string read_regular_file(const std::string& path, size_t max_size,
                              const std::string& error_prefix);

// The rest of fd's content; nullopt with errno set on a read error, or with EFBIG when it holds
// more than max_size bytes.
std::optional<std::string> read_at_most(int fd, size_t max_size);

}  // namespace retsnoop
