#include "util/log.h"

#include <gtest/gtest.h>

#include <string>

namespace retsnoop {
namespace {

std::string logged(int level) {
  testing::internal::CaptureStderr();
  logf(level, "cannot open '%s'\n", "x");
  return testing::internal::GetCapturedStderr();
}

TEST(Log, EachKindPrintsItsOwnPrefix) {
  set_log_verbosity(3);
  EXPECT_EQ(logged(LOG_ERROR), "retsnoop: cannot open 'x'\n");
  EXPECT_EQ(logged(LOG_WARN), "warning: cannot open 'x'\n");
  EXPECT_EQ(logged(LOG_HINT), "hint: cannot open 'x'\n");
  EXPECT_EQ(logged(LOG_NOTICE), "cannot open 'x'\n");
  EXPECT_EQ(logged(LOG_INFO), "cannot open 'x'\n");
  EXPECT_EQ(logged(LOG_DEBUG), "cannot open 'x'\n");
  EXPECT_EQ(logged(LOG_TRACE), "cannot open 'x'\n");
  set_log_verbosity(0);
}

TEST(Log, VerbosityGatesOnlyTheVerboseLevels) {
  set_log_verbosity(0);
  for (int level : {LOG_ERROR, LOG_WARN, LOG_HINT, LOG_NOTICE}) {
    EXPECT_TRUE(log_enabled(level)) << level;
    EXPECT_NE(logged(level), "") << level;
  }
  EXPECT_EQ(logged(LOG_INFO), "");
  set_log_verbosity(1);
  EXPECT_NE(logged(LOG_INFO), "");
  EXPECT_EQ(logged(LOG_DEBUG), "");
  set_log_verbosity(2);
  EXPECT_NE(logged(LOG_DEBUG), "");
  EXPECT_EQ(logged(LOG_TRACE), "");
  set_log_verbosity(3);
  EXPECT_NE(logged(LOG_TRACE), "");
  set_log_verbosity(0);
}

}  // namespace
}  // namespace retsnoop
