#include "attach/progress_meter.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <unistd.h>

#include <string>

namespace retsnoop {
namespace {

using namespace std::chrono_literals;

// A pipe standing in for the terminal.
class Screen {
 public:
  Screen() { EXPECT_EQ(pipe2(fds_, O_NONBLOCK), 0); }
  ~Screen() {
    close(fds_[0]);
    close(fds_[1]);
  }
  ProgressDisplay display(std::chrono::milliseconds delay) const { return {fds_[1], delay, 5ms}; }
  // Waits (in poll(), at most 10 s) until the display thread has drawn needle.
  bool shows(const std::string& needle) {
    for (int waits = 0; text_.find(needle) == std::string::npos; ++waits) {
      pollfd pfd{fds_[0], POLLIN, 0};
      if (waits == 1000 || poll(&pfd, 1, 10) < 0) return false;
      read_available();
    }
    return true;
  }
  // Everything drawn so far.
  std::string text() {
    read_available();
    return text_;
  }

 private:
  void read_available() {
    char buf[4096];
    for (ssize_t n; (n = read(fds_[0], buf, sizeof(buf))) > 0;) text_.append(buf, n);
  }
  int fds_[2];
  std::string text_;
};

TEST(ProgressMeter, DrawsDoneOverTotalInPlaceThenErases) {
  Screen screen;
  {
    ProgressMeter m("Attaching... ", 10, ProgressMeter::Finish::Erase, screen.display(0ms));
    m.advance(4);
    ASSERT_TRUE(screen.shows("\rAttaching... 4/10\033[K")) << screen.text();
  }
  std::string text = screen.text();
  EXPECT_NE(text.find("\rAttaching... 4/10\033[K"), std::string::npos) << text;
  EXPECT_TRUE(text.ends_with("\r\033[K")) << text;
}

TEST(ProgressMeter, KeepLabelLeavesTheLabelForWhatFollows) {
  Screen screen;
  {
    ProgressMeter m("Detaching... ", 2, ProgressMeter::Finish::KeepLabel, screen.display(0ms));
    ASSERT_TRUE(screen.shows("\rDetaching... 0/2\033[K")) << screen.text();
  }
  EXPECT_TRUE(screen.text().ends_with("\rDetaching... \033[K"));
}

TEST(ProgressMeter, ShortWorkShowsNothing) {
  Screen screen;
  {
    ProgressMeter m("Attaching... ", 10, ProgressMeter::Finish::Erase, screen.display(10s));
    m.advance(10);
  }
  EXPECT_EQ(screen.text(), "");
}

TEST(ProgressMeter, SilentDisplayStillCounts) {
  ProgressMeter m("Attaching... ", 10, ProgressMeter::Finish::Erase, ProgressDisplay{});
  m.advance(3);
  m.advance(2);
  EXPECT_EQ(m.done(), 5u);
}

}  // namespace
}  // namespace retsnoop
