// --user and sudo's variables against /etc/passwd and /etc/group, which retsnoop parses itself
// (a static binary has no NSS). The input holds, split at NUL bytes: the user's name, the
// passwd text, the group text, SUDO_UID, SUDO_GID and SUDO_USER; a missing one is unset.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "app/command_user.h"
#include "util/error.h"

namespace {

constexpr size_t kParts = 6;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<std::string> parts(1);
  for (size_t i = 0; i < size; ++i) {
    if (data[i] == '\0' && parts.size() < kParts)
      parts.emplace_back();
    else
      parts.back() += static_cast<char>(data[i]);
  }
  auto part = [&](size_t i) { return i < parts.size() ? parts[i].c_str() : nullptr; };
  retsnoop::AccountSource src;
  src.passwd = part(1) ? part(1) : "";
  src.group = part(2) ? part(2) : "";
  src.sudo_uid = part(3);
  src.sudo_gid = part(4);
  src.sudo_user = part(5);
  try {
    std::optional<retsnoop::CommandUser> user = retsnoop::command_user(parts[0], src);
    retsnoop::command_environment({"HOME=/root", "USER=root", "PATH=/usr/bin"}, user);
  } catch (const retsnoop::UserError&) {
    // A refusal is the parser's answer to bad input; anything else escaping is a bug.
  }
  return 0;
}
