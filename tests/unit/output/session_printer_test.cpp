#include "output/session_printer.h"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <poll.h>
#include <sys/mman.h>
#include <unistd.h>

#include <future>
#include <optional>
#include <span>
#include <utility>
#include <vector>

namespace retsnoop {
namespace {

using Clock = SessionPrinter::Clock;

// Output captured in a memory file; read it once the printer has finished.
class MemFile {
 public:
  MemFile() : fd_(memfd_create("rs_printer_test", MFD_CLOEXEC)), sink_(fd_) {}
  ~MemFile() { close(fd_); }
  OutputSink& get() { return sink_; }
  std::string text() {
    std::string out(size_t(lseek(fd_, 0, SEEK_END)), '\0');
    EXPECT_EQ(pread(fd_, out.data(), out.size(), 0), ssize_t(out.size()));
    return out;
  }

 private:
  int fd_;
  OutputSink sink_;
};

Session numbered(uint64_t id) { return Session{.id = id}; }

void id_line(const Session& s, std::string& out) { out += std::to_string(s.id) + "\n"; }

TEST(SessionPrinter, PrintsEverythingQueuedInOrder) {
  MemFile out;
  SessionPrinter p(id_line, out.get(), 1 << 20);
  for (uint64_t id = 1; id <= 5; ++id) ASSERT_TRUE(p.push(numbered(id)));
  p.finish(Clock::now() + std::chrono::seconds(10));
  EXPECT_EQ(out.text(), "1\n2\n3\n4\n5\n");
  EXPECT_EQ(p.printed(), 5u);
}

// The first session blocks the printer until released, so the others pile up in the queue.
class BlockedPrinter : public ::testing::Test {
 protected:
  std::promise<void> release_;
  std::shared_future<void> released_ = release_.get_future().share();
  std::promise<void> blocked_;  // set once the printer waits in session 1
  MemFile out_;
  SessionPrinter::Format format_ = [this](const Session& s, std::string& out) {
    if (s.id == 1) {
      blocked_.set_value();
      released_.wait();
    }
    id_line(s, out);
  };
};

// A pipe, as a reader like `retsnoop | grep` sees the output: what arrived within a wait.
class PipeOutput {
 public:
  PipeOutput() {
    EXPECT_EQ(pipe2(fds_, O_CLOEXEC), 0);
    sink_.emplace(fds_[1]);
  }
  ~PipeOutput() {
    close(fds_[0]);
    close(fds_[1]);
  }
  OutputSink& get() { return *sink_; }
  std::string read_within(std::chrono::milliseconds wait) {
    pollfd p{fds_[0], POLLIN, 0};
    if (poll(&p, 1, int(wait.count())) != 1) return "";
    char buf[256];
    ssize_t n = read(fds_[0], buf, sizeof(buf));
    return n > 0 ? std::string(buf, size_t(n)) : "";
  }

 private:
  int fds_[2] = {-1, -1};
  std::optional<OutputSink> sink_;
};

TEST(SessionPrinter, PipeGetsASessionWithinTheFlushInterval) {
  PipeOutput out;
  constexpr auto kInterval = std::chrono::milliseconds(50);
  SessionPrinter p(id_line, out.get(), 1 << 20, kInterval);
  auto pushed = Clock::now();
  ASSERT_TRUE(p.push(numbered(7)));
  EXPECT_EQ(out.read_within(std::chrono::seconds(5)), "7\n");
  // Scheduling slack on a loaded machine, but far below the 5 s the read would wait.
  EXPECT_LT(Clock::now() - pushed, kInterval + std::chrono::seconds(1));
  p.finish(Clock::now() + std::chrono::seconds(10));
  // Counted after its write returns, so only certain once the printer stopped.
  EXPECT_EQ(p.printed(), 1u);
}

// Sessions batched for a pipe wait for their interval, and a stop (SIGINT, SIGTERM, the end of
// a command all end in finish()) writes them before the printer exits.
TEST(SessionPrinter, FinishWritesTheBatchStillWaiting) {
  PipeOutput out;
  SessionPrinter p(id_line, out.get(), 1 << 20, std::chrono::hours(1));
  ASSERT_TRUE(p.push(numbered(1)));
  ASSERT_TRUE(p.push(numbered(2)));
  EXPECT_EQ(out.read_within(std::chrono::milliseconds(200)), "");
  EXPECT_EQ(p.printed(), 0u);
  p.finish(Clock::now() + std::chrono::seconds(10));
  EXPECT_EQ(out.read_within(std::chrono::seconds(5)), "1\n2\n");
  EXPECT_EQ(p.printed(), 2u);
}

TEST_F(BlockedPrinter, FullBacklogRefusesSessions) {
  SessionPrinter p(format_, out_.get(), 3 * sizeof(Session));
  uint64_t accepted = 0;
  for (uint64_t id = 1; p.push(numbered(id)); ++id) ++accepted;
  // Three fit in the queue, plus the first if the printer took it already.
  EXPECT_GE(accepted, 3u);
  EXPECT_LE(accepted, 4u);
  release_.set_value();
  p.finish(Clock::now() + std::chrono::seconds(10));
  EXPECT_EQ(p.printed(), accepted);
}

// Captured arguments, user stacks and line hits count towards the backlog like the rest of a
// session: a flood of -A strings, -U stacks or --line-trace hits cannot grow it past its limit.
TEST_F(BlockedPrinter, ArgumentsUserStacksAndLineHitsCountTowardsTheBacklog) {
  SessionPrinter p(format_, out_.get(), 8 * sizeof(Session));
  ASSERT_TRUE(p.push(numbered(1)));
  Session args = numbered(2);
  args.args[1].data.push_back(std::vector<uint8_t>(1 << 20));
  EXPECT_FALSE(p.push(std::move(args)));
  Session ustack = numbered(3);
  ustack.ustack.resize(1 << 17);
  EXPECT_FALSE(p.push(std::move(ustack)));
  Session lines = numbered(4);
  lines.lines.resize(1 << 16);
  EXPECT_FALSE(p.push(std::move(lines)));
  EXPECT_TRUE(p.push(numbered(5)));
  release_.set_value();
  p.finish(Clock::now() + std::chrono::seconds(10));
  EXPECT_EQ(out_.text(), "1\n5\n");
}

// A batch is queued up to the backlog limit; what does not fit stays in the caller's hands.
TEST_F(BlockedPrinter, BatchQueuesWhatFitsAndLeavesTheRest) {
  SessionPrinter p(format_, out_.get(), 3 * sizeof(Session));
  ASSERT_TRUE(p.push(numbered(1)));
  std::vector<Session> batch;
  for (uint64_t id = 2; id <= 6; ++id) batch.push_back(numbered(id));
  size_t queued = p.push(std::span<Session>(batch));
  // Three fit in the queue, plus one if the printer took the first session already.
  EXPECT_GE(queued, 2u);
  EXPECT_LE(queued, 3u);
  for (size_t i = queued; i < batch.size(); ++i) EXPECT_EQ(batch[i].id, i + 2);
  release_.set_value();
  p.finish(Clock::now() + std::chrono::seconds(10));
  EXPECT_EQ(p.printed(), 1 + queued);
  std::string expected;
  for (uint64_t id = 1; id <= 1 + queued; ++id) expected += std::to_string(id) + "\n";
  EXPECT_EQ(out_.text(), expected);
}

TEST_F(BlockedPrinter, StopLeavesTheBacklogUnprinted) {
  SessionPrinter p(format_, out_.get(), 1 << 20);
  for (uint64_t id = 1; id <= 100; ++id) ASSERT_TRUE(p.push(numbered(id)));
  blocked_.get_future().wait();
  // The stop ends the printer's waits past the deadline, as it ends the -U symbolizer's: that
  // releases session 1, which goes out, and nothing queued after it does. Abandoning the output
  // would end the waits a second time.
  bool released = false;
  out_.get().set_wait_ender([&] {
    if (!std::exchange(released, true)) release_.set_value();
  });
  p.finish(Clock::now());
  EXPECT_EQ(p.printed(), 1u);  // the one being printed when the grace period ended
  EXPECT_EQ(out_.text(), "1\n");
}

// A printer blocked outside write() (formatting that reads a file whose server never answers)
// does not hold up the stop, and the detach after it: finish() returns, the printer says it is
// stuck, and nothing it was formatting counts as printed.
TEST_F(BlockedPrinter, FinishIsBoundedWhenFormattingHangs) {
  std::optional<SessionPrinter> p(std::in_place, format_, out_.get(), 1 << 20);
  ASSERT_TRUE(p->push(numbered(1)));
  ASSERT_TRUE(p->push(numbered(2)));
  auto t0 = Clock::now();
  p->finish(t0 + std::chrono::milliseconds(20));
  EXPECT_LT(Clock::now() - t0, std::chrono::seconds(3));
  EXPECT_TRUE(p->stuck());
  EXPECT_EQ(p->printed(), 0u);
  // Unblocked, the thread ends and is joined as usual.
  release_.set_value();
  p.reset();
  EXPECT_EQ(out_.text(), "");
}

// Sessions written into a failed output are not counted as printed, and the rest stays queued.
TEST(SessionPrinter, FailedOutputStopsPrinting) {
  int fd = open("/dev/full", O_WRONLY | O_CLOEXEC);
  OutputSink full(fd);
  SessionPrinter p(id_line, full, 1 << 20);
  for (uint64_t id = 1; id <= 3; ++id) ASSERT_TRUE(p.push(numbered(id)));
  p.finish(Clock::now() + std::chrono::seconds(10));
  EXPECT_EQ(p.printed(), 0u);
  EXPECT_TRUE(full.failed());
  close(fd);
}

TEST(SessionPrinter, FormattingErrorReachesFinish) {
  MemFile out;
  SessionPrinter p([](const Session&, std::string&) { throw std::runtime_error("no memory"); },
                   out.get(), 1 << 20);
  ASSERT_TRUE(p.push(numbered(1)));
  EXPECT_THROW(p.finish(Clock::now() + std::chrono::seconds(10)), std::runtime_error);
  EXPECT_TRUE(p.failed());
}

}  // namespace
}  // namespace retsnoop
