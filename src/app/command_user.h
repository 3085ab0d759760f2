// Whom command mode runs the command as: the user named by --user, or the one who ran sudo, so
// that a command started through `sudo retsnoop` does not run as root.
#pragma once

#include <sys/types.h>

#include <optional>
#include <string>
#include <vector>

namespace retsnoop {

struct CommandUser {
  uid_t uid = 0;
  gid_t gid = 0;
  std::vector<gid_t> groups;  // supplementary groups, the primary one included
  // From the passwd entry; empty when the user has none (sudo's uid without an account).
  std::string name, home, shell;
  bool operator==(const CommandUser&) const = default;
};

// Where the accounts are read from (the files' text, for unit tests) and sudo's variables.
struct AccountSource {
  std::string passwd;  // /etc/passwd
  std::string group;   // /etc/group
  const char* sudo_uid = nullptr;
  const char* sudo_gid = nullptr;
  const char* sudo_user = nullptr;
};

// nullopt: keep retsnoop's own credentials (no --user, not run through sudo). Throws UserError
// for a user that does not exist or malformed sudo variables. /etc files are parsed directly:
// a static binary has no NSS modules to ask.
std::optional<CommandUser> command_user(const std::string& name, const AccountSource& src);

// The system's files and this process's environment.
AccountSource system_accounts();

// env (NAME=value strings) as the command gets it: run as another user, HOME, USER, LOGNAME
// and SHELL are that user's (SHELL /bin/sh when the entry names none), not root's, so that the
// command neither reads nor writes root's dotfiles by mistake.
std::vector<std::string> command_environment(const std::vector<std::string>& env,
                                             const std::optional<CommandUser>& user);

}  // namespace retsnoop
