#include "cli/stderr_capture.h"

#include <gtest/gtest.h>

namespace retsnoop {
namespace {

TEST(StderrCapture, CollectsWritesToStderrAndRestoresIt) {
  std::FILE* real = stderr;
  {
    StderrCapture capture;
    EXPECT_NE(stderr, real);
    std::fprintf(stderr, "first %d\n", 1);
    EXPECT_EQ(capture.text(), "first 1\n");
    std::fputs("second\n", stderr);
    EXPECT_EQ(capture.text(), "first 1\nsecond\n");
  }
  EXPECT_EQ(stderr, real);
}

TEST(StderrCapture, NothingWritten) {
  StderrCapture capture;
  EXPECT_EQ(capture.text(), "");
}

}  // namespace
}  // namespace retsnoop
