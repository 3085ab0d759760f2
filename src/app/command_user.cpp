#include "app/command_user.h"

#include <algorithm>
#include <cstdlib>
#include <sstream>

#include "util/error.h"
#include "util/file_text.h"

namespace retsnoop {

namespace {

std::vector<std::string> fields(const std::string& line, char sep) {
  std::vector<std::string> out;
  std::istringstream in(line);
  std::string field;
  while (std::getline(in, field, sep)) out.push_back(field);
  if (!line.empty() && line.back() == sep) out.emplace_back();
  return out;
}

std::optional<uint32_t> parse_id(const std::string& text) {
  if (text.empty() || text.size() > 10) return std::nullopt;
  char* end = nullptr;
  unsigned long long v = std::strtoull(text.c_str(), &end, 10);
  if (*end || v > 0xfffffffeULL) return std::nullopt;
  return uint32_t(v);
}

// The passwd line of name: name:password:uid:gid:...
std::optional<CommandUser> find_passwd(const std::string& passwd, const std::string& name) {
  std::istringstream in(passwd);
  std::string line;
  while (std::getline(in, line)) {
    auto f = fields(line, ':');
    if (f.size() < 4 || f[0] != name) continue;
    auto uid = parse_id(f[2]), gid = parse_id(f[3]);
    if (!uid || !gid) break;
    return CommandUser{*uid, *gid, {}, f[0], f.size() > 5 ? f[5] : "", f.size() > 6 ? f[6] : ""};
  }
  return std::nullopt;
}

// The primary group, then every group line (name:password:gid:members) listing name.
std::vector<gid_t> groups_of(const std::string& group, const std::string& name, gid_t primary) {
  std::vector<gid_t> out{primary};
  std::istringstream in(group);
  std::string line;
  while (std::getline(in, line)) {
    auto f = fields(line, ':');
    if (f.size() < 4) continue;
    auto gid = parse_id(f[2]);
    if (!gid || *gid == primary) continue;
    for (const auto& member : fields(f[3], ','))
      if (member == name) out.push_back(*gid);
  }
  return out;
}

CommandUser named_user(const std::string& name, const AccountSource& src) {
  auto user = find_passwd(src.passwd, name);
  if (!user) throw UserError("--user: no user '" + name + "' in /etc/passwd");
  user->groups = groups_of(src.group, name, user->gid);
  return *user;
}

// sudo's SUDO_UID and SUDO_GID; the groups of SUDO_USER when it is that user's account.
CommandUser sudo_user(const AccountSource& src) {
  auto uid = parse_id(src.sudo_uid), gid = parse_id(src.sudo_gid ? src.sudo_gid : "");
  if (!uid || !gid)
    throw UserError("SUDO_UID/SUDO_GID do not name a user; run the command with --user NAME");
  CommandUser user{*uid, *gid, {*gid}};
  if (!src.sudo_user) return user;
  auto account = find_passwd(src.passwd, src.sudo_user);
  if (account && account->uid == user.uid) {
    user.groups = groups_of(src.group, src.sudo_user, user.gid);
    user.name = account->name;
    user.home = account->home;
    user.shell = account->shell;
  }
  return user;
}

}  // namespace

std::optional<CommandUser> command_user(const std::string& name, const AccountSource& src) {
  if (!name.empty()) return named_user(name, src);
  if (!src.sudo_uid) return std::nullopt;
  return sudo_user(src);
}

std::vector<std::string> command_environment(const std::vector<std::string>& env,
                                             const std::optional<CommandUser>& user) {
  if (!user || user->name.empty()) return env;
  std::vector<std::string> set = {"HOME=" + user->home, "USER=" + user->name,
                                  "LOGNAME=" + user->name,
                                  "SHELL=" + (user->shell.empty() ? "/bin/sh" : user->shell)};
  std::vector<std::string> out;
  for (const std::string& var : env) {
    size_t eq = var.find('=');
    bool replaced =
        eq != std::string::npos && std::any_of(set.begin(), set.end(), [&](const std::string& s) {
          return s.starts_with(std::string_view(var).substr(0, eq + 1));
        });
    if (!replaced) out.push_back(var);
  }
  out.insert(out.end(), set.begin(), set.end());
  return out;
}

AccountSource system_accounts() {
  AccountSource src;
  src.passwd = read_text_file("/etc/passwd").value_or("");
  src.group = read_text_file("/etc/group").value_or("");
  src.sudo_uid = std::getenv("SUDO_UID");
  src.sudo_gid = std::getenv("SUDO_GID");
  src.sudo_user = std::getenv("SUDO_USER");
  return src;
}

}  // namespace retsnoop
