// The kernel lockdown mode (security/lockdown/lockdown.c): it explains refusals that look like
// missing privileges, an EPERM answered to root. Modes are 0 none, 1 integrity, 2 confidentiality.
#pragma once

#include <string>
#include <string_view>

namespace retsnoop {

// The bracketed mode of the lockdown file's text ("none [integrity] confidentiality"); -EINVAL
// when no known mode is bracketed.
int parse_lockdown(std::string_view text);

// The running kernel's mode, or -errno when the file cannot be read: a kernel without the
// lockdown LSM, or securityfs not mounted and not mountable privately (no CAP_SYS_ADMIN).
int read_lockdown(const char* path = "/sys/kernel/security/lockdown");

// "none", "integrity", "confidentiality", or "unknown (ENOENT)" for a -errno.
std::string lockdown_text(int mode);

}  // namespace retsnoop
