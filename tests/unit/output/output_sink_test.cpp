#include "output/output_sink.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <string>

namespace retsnoop {
namespace {

class Pipe {
 public:
  Pipe() {
    signal(SIGPIPE, SIG_IGN);
    EXPECT_EQ(pipe2(fds_, O_CLOEXEC), 0);
  }
  ~Pipe() {
    close_reader();
    close(fds_[1]);
  }
  int reader() const { return fds_[0]; }
  int writer() const { return fds_[1]; }
  void close_reader() {
    if (fds_[0] >= 0) close(fds_[0]);
    fds_[0] = -1;
  }
  std::string read_some() {
    char buf[256];
    ssize_t n = read(fds_[0], buf, sizeof(buf));
    return n > 0 ? std::string(buf, size_t(n)) : "";
  }

 private:
  int fds_[2] = {-1, -1};
};

TEST(OutputSink, WritesThrough) {
  Pipe p;
  OutputSink out(p.writer());
  EXPECT_TRUE(out.write("hello\n"));
  EXPECT_EQ(p.read_some(), "hello\n");
  EXPECT_FALSE(out.failed());
  EXPECT_EQ(out.failure(), "");
}

TEST(OutputSink, ClosedPipeFailsTheWriteInsteadOfKilling) {
  Pipe p;
  p.close_reader();
  OutputSink out(p.writer());
  EXPECT_FALSE(out.write("x\n"));
  EXPECT_TRUE(out.failed());
  EXPECT_EQ(out.failure(), "Broken pipe");
}

// `| head -1` exits after the first line: noticed before anything else is written.
TEST(OutputSink, GoneReaderIsNoticedWithoutWriting) {
  Pipe p;
  OutputSink out(p.writer());
  EXPECT_FALSE(out.failed());
  p.close_reader();
  EXPECT_TRUE(out.failed());
  EXPECT_EQ(out.failure(), "Broken pipe");
}

TEST(OutputSink, FullDiskIsAFailure) {
  int fd = open("/dev/full", O_WRONLY | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  OutputSink out(fd);
  EXPECT_FALSE(out.write("x\n"));
  EXPECT_EQ(out.failure(), "No space left on device");
  close(fd);
}

// A reader that stopped reading: the writer blocks on the full pipe until abandoned.
TEST(OutputSink, AbandonReleasesABlockedWriter) {
  Pipe p;
  OutputSink out(p.writer());
  std::string big(1 << 20, 'x');
  auto writer = std::async(std::launch::async, [&] { return out.write(big); });
  EXPECT_EQ(writer.wait_for(std::chrono::milliseconds(100)), std::future_status::timeout);
  out.abandon();
  ASSERT_EQ(writer.wait_for(std::chrono::seconds(5)), std::future_status::ready);
  EXPECT_FALSE(writer.get());
  EXPECT_TRUE(out.failed());
  EXPECT_FALSE(out.write_status("DONE\n"));
}

TEST(OutputSink, StatusLineNeverBlocksOnAFullPipe) {
  Pipe p;
  fcntl(p.writer(), F_SETPIPE_SZ, 4096);
  std::string fill(4096, 'x');
  ASSERT_EQ(write(p.writer(), fill.data(), fill.size()), 4096);
  OutputSink out(p.writer());
  EXPECT_FALSE(out.write_status("Detaching... "));
}

}  // namespace
}  // namespace retsnoop
