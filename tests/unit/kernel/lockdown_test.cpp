#include "kernel/lockdown.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cerrno>
#include <fstream>

namespace retsnoop {
namespace {

TEST(Lockdown, TheBracketedModeIsCurrent) {
  EXPECT_EQ(parse_lockdown("[none] integrity confidentiality\n"), 0);
  EXPECT_EQ(parse_lockdown("none [integrity] confidentiality\n"), 1);
  EXPECT_EQ(parse_lockdown("none integrity [confidentiality]\n"), 2);
  EXPECT_EQ(parse_lockdown("none integrity confidentiality\n"), -EINVAL);
}

TEST(Lockdown, ReadsTheFileOrSaysWhyNot) {
  std::string path = "/tmp/rs_lockdown_test." + std::to_string(getpid());
  std::ofstream(path) << "none [integrity] confidentiality\n";
  EXPECT_EQ(read_lockdown(path.c_str()), 1);
  unlink(path.c_str());
  EXPECT_EQ(read_lockdown("/nonexistent/security/lockdown"), -ENOENT);
}

TEST(Lockdown, Text) {
  EXPECT_EQ(lockdown_text(0), "none");
  EXPECT_EQ(lockdown_text(1), "integrity");
  EXPECT_EQ(lockdown_text(2), "confidentiality");
  EXPECT_EQ(lockdown_text(-ENOENT), "unknown (ENOENT)");
}

}  // namespace
}  // namespace retsnoop
