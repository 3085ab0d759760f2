#include "util/phase_timer.h"

#include <gtest/gtest.h>

#include <memory>

#include "util/log.h"

namespace retsnoop {
namespace {

TEST(PhaseTimer, TimedReturnsWhatTheFunctionReturns) {
  set_log_verbosity(0);
  EXPECT_EQ(timed("sum", [] { return 40 + 2; }), 42);
  auto p = timed("move-only", [] { return std::make_unique<int>(7); });
  EXPECT_EQ(*p, 7);
}

TEST(PhaseTimer, LogsThePhaseAtDebugLevelOnly) {
  set_log_verbosity(2);
  testing::internal::CaptureStderr();
  timed("kallsyms", [] {});
  std::string out = testing::internal::GetCapturedStderr();
  EXPECT_EQ(out.rfind("phase kallsyms: ", 0), 0u) << out;
  EXPECT_NE(out.find(" ms\n"), std::string::npos) << out;

  set_log_verbosity(1);
  testing::internal::CaptureStderr();
  timed("kallsyms", [] {});
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
  set_log_verbosity(0);
}

}  // namespace
}  // namespace retsnoop
