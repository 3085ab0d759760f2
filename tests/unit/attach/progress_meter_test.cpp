#include "attach/progress_meter.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <string>
#include <thread>

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
  std::string text() const {
    std::string out;
    char buf[4096];
    for (ssize_t n; (n = read(fds_[0], buf, sizeof(buf))) > 0;) out.append(buf, n);
    return out;
  }

 private:
  int fds_[2];
};

TEST(ProgressMeter, DrawsDoneOverTotalInPlaceThenErases) {
  Screen screen;
  {
    ProgressMeter m("Attaching... ", 10, ProgressMeter::Finish::Erase, screen.display(0ms));
    m.advance(4);
    std::this_thread::sleep_for(50ms);
  }
  std::string text = screen.text();
  EXPECT_NE(text.find("\rAttaching... 4/10\033[K"), std::string::npos) << text;
  EXPECT_TRUE(text.ends_with("\r\033[K")) << text;
}

TEST(ProgressMeter, KeepLabelLeavesTheLabelForWhatFollows) {
  Screen screen;
  {
    ProgressMeter m("Detaching... ", 2, ProgressMeter::Finish::KeepLabel, screen.display(0ms));
    std::this_thread::sleep_for(50ms);
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
