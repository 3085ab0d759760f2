#include "app/command_user.h"

#include <gtest/gtest.h>

#include "util/error.h"

namespace retsnoop {
namespace {

AccountSource accounts() {
  AccountSource src;
  src.passwd =
      "root:x:0:0:root:/root:/bin/sh\n"
      "alice:x:1000:1000:Alice:/home/alice:/bin/bash\n"
      "bob:x:1001:100::/home/bob:/bin/sh\n";
  src.group =
      "root:x:0:\n"
      "users:x:100:alice\n"
      "alice:x:1000:\n"
      "wheel:x:10:bob,alice\n"
      "docker:x:998:bobby\n";
  return src;
}

TEST(CommandUser, NoUserNoSudoKeepsRetsnoopsCredentials) {
  EXPECT_EQ(command_user("", accounts()), std::nullopt);
}

TEST(CommandUser, NamedUserWithItsGroups) {
  auto u = command_user("alice", accounts());
  ASSERT_TRUE(u);
  EXPECT_EQ(*u, (CommandUser{1000, 1000, {1000, 100, 10}, "alice", "/home/alice", "/bin/bash"}));
  // bob's primary group is listed once; "bobby" is not bob.
  EXPECT_EQ(command_user("bob", accounts())->groups, (std::vector<gid_t>{100, 10}));
}

TEST(CommandUser, UnknownUserIsAUserError) {
  EXPECT_THROW(command_user("mallory", accounts()), UserError);
}

TEST(CommandUser, SudoVariables) {
  AccountSource src = accounts();
  src.sudo_uid = "1000";
  src.sudo_gid = "1000";
  src.sudo_user = "alice";
  EXPECT_EQ(*command_user("", src),
            (CommandUser{1000, 1000, {1000, 100, 10}, "alice", "/home/alice", "/bin/bash"}));
  src.sudo_user = "bob";  // not the account of SUDO_UID: only the primary group, no account
  EXPECT_EQ(*command_user("", src), (CommandUser{1000, 1000, {1000}}));
}

TEST(CommandUser, UserOptionWinsOverSudo) {
  AccountSource src = accounts();
  src.sudo_uid = "1000";
  src.sudo_gid = "1000";
  EXPECT_EQ(command_user("root", src)->uid, 0u);
}

TEST(CommandUser, MalformedSudoVariablesAreRefused) {
  AccountSource src = accounts();
  src.sudo_uid = "x";
  src.sudo_gid = "1000";
  EXPECT_THROW(command_user("", src), UserError);
  src.sudo_uid = "1000";
  src.sudo_gid = nullptr;
  EXPECT_THROW(command_user("", src), UserError);
}

// Root's HOME, USER, LOGNAME and SHELL are replaced by the user's; the rest passes through.
TEST(CommandEnvironment, UserVariablesComeFromThePasswdEntry) {
  std::vector<std::string> env = {"PATH=/bin",      "HOME=/root",    "USER=root",
                                  "SHELL=/bin/zsh", "HOMER=simpson", "NOEQUALS"};
  auto bob = command_user("bob", accounts());
  bob->shell.clear();
  EXPECT_EQ(command_environment(env, bob),
            (std::vector<std::string>{"PATH=/bin", "HOMER=simpson", "NOEQUALS", "HOME=/home/bob",
                                      "USER=bob", "LOGNAME=bob", "SHELL=/bin/sh"}));
  EXPECT_EQ(command_environment(env, std::nullopt), env);
  EXPECT_EQ(command_environment(env, CommandUser{1000, 1000, {1000}}), env);  // no account
}

}  // namespace
}  // namespace retsnoop
