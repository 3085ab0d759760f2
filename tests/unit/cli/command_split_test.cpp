#include "cli/command_split.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "parse_helpers.h"

namespace retsnoop {
namespace {

using Strings = std::vector<std::string>;

CommandSplit split(std::vector<std::string> args) {
  std::vector<char*> argv;
  argv.reserve(args.size() + 1);
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  return split_at_command(static_cast<int>(args.size()), argv.data());
}

TEST(CommandSplit, NoSeparatorKeepsEverything) {
  CommandSplit s = split({"retsnoop", "-e", "x"});
  EXPECT_EQ(s.own_argc, 3);
  EXPECT_FALSE(s.has_separator);
  EXPECT_TRUE(s.command.empty());
}

TEST(CommandSplit, FirstSeparatorStartsTheCommand) {
  CommandSplit s = split({"retsnoop", "-e", "x", "--", "./loader", "-v", "--", "prog.o"});
  EXPECT_EQ(s.own_argc, 3);
  EXPECT_TRUE(s.has_separator);
  EXPECT_EQ(s.command, (Strings{"./loader", "-v", "--", "prog.o"}));
}

TEST(CommandSplit, SeparatorWithNothingAfter) {
  CommandSplit s = split({"retsnoop", "--"});
  EXPECT_EQ(s.own_argc, 1);
  EXPECT_TRUE(s.has_separator);
  EXPECT_TRUE(s.command.empty());
}

TEST(CommandSplit, ParseOptionsLeavesTheCommandsOptionsAlone) {
  Options o = test::parse({"-e", "x", "-U", "--user", "nobody", "--", "ls", "-U", "--user"});
  EXPECT_TRUE(o.user_stacks);
  EXPECT_EQ(o.run_as_user, "nobody");
  EXPECT_EQ(o.command, (Strings{"ls", "-U", "--user"}));
}

TEST(CommandSplit, ParseOptionsRefusesAnEmptyCommand) {
  EXPECT_STREQ(test::parse_error({"-e", "x", "--"}).what(), "no command after '--'");
}

TEST(CommandSplit, UserNeedsACommand) {
  EXPECT_STREQ(test::parse_error({"-e", "x", "--user", "nobody"}).what(),
               "--user needs a command after '--'");
}

TEST(CommandSplit, ArgumentsWithoutSeparatorAreStillRefused) {
  EXPECT_STREQ(test::parse_error({"-e", "x", "ls"}).what(), "unexpected argument 'ls'");
}

}  // namespace
}  // namespace retsnoop
