// Formats and writes sessions on a thread of its own. The ring buffer consumer only decodes and
// queues them, so under a flood the BPF ring buffer drains at decoding speed, not at the speed of
// symbolization, formatting and the terminal; the backlog waits in memory instead of being
// dropped by the kernel.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <span>
#include <string>
#include <thread>
#include <variant>

#include "events/repeat_group.h"
#include "events/session.h"
#include "output/output_sink.h"

namespace retsnoop {

class SessionPrinter {
 public:
  // Appends the session's text to the string given.
  using Format = std::function<void(const Session&, std::string&)>;
  using RepeatFormat = std::function<std::string(const RepeatGroup&)>;
  using Clock = std::chrono::steady_clock;

  // Longest a printed session waits in the printer's buffer when the output is not a terminal.
  static constexpr auto kFlushInterval = std::chrono::milliseconds(50);

  // format and format_repeats run on the printer thread only (the symbolizer behind them is
  // not thread-safe). Sessions beyond max_queued_bytes of backlog are refused. Output that is
  // not a terminal is written in batches, each at most flush_interval after its first session
  // was formatted. Throws UserError when the thread cannot be started.
  SessionPrinter(Format format, OutputSink& out, size_t max_queued_bytes,
                 Clock::duration flush_interval = kFlushInterval, RepeatFormat format_repeats = {});
  // Abandons whatever is still queued.
  ~SessionPrinter();
  SessionPrinter(const SessionPrinter&) = delete;
  SessionPrinter& operator=(const SessionPrinter&) = delete;

  // Queues s; false, leaving s alone, when the backlog is full.
  bool push(Session&& s);
  // Queues the longest leading run of batch that the backlog takes, moving those sessions out;
  // returns how many. The rest are left alone.
  size_t push(std::span<Session> batch);
  // Queues the repeats of a session queued before; they are never refused (they are small, and
  // refusing them would lose every session they count).
  void push(RepeatGroup&& g);
  // Keeps printing until the queue is empty or deadline passes, then stops the thread; what is
  // still queued stays unprinted. A thread still blocked writing shortly after the deadline (a
  // reader that stopped reading) has its write abandoned, and so has the output. Returns within
  // about two seconds of the deadline whatever the thread does: one blocked elsewhere (reading
  // a file whose server never answers) is left running, and stuck() says so.
  void finish(Clock::time_point deadline);
  // The thread did not end when stopped. It still uses what format borrowed: the process must
  // end without destroying that, nor this printer.
  bool stuck() const { return stuck_; }
  uint64_t printed() const { return printed_.load(std::memory_order_relaxed); }
  // Repeats of printed sessions whose count was printed.
  uint64_t repeats_printed() const { return repeats_printed_.load(std::memory_order_relaxed); }
  // True once formatting threw: the printer stopped, and finish() rethrows the exception.
  bool failed() const { return failed_.load(); }

 private:
  enum class Next { Item, FlushDue, Stop };
  using Item = std::variant<Session, RepeatGroup>;

  void run();
  Next next();
  Next take_queue();
  void enqueue(Item&& item, size_t bytes, std::unique_lock<std::mutex>& lock);
  bool fits(size_t bytes) const;  // with mu_ held
  void format(const Item& item);
  void flush();
  bool flush_due();
  bool caught_up();
  void stop_thread(Clock::time_point abandon_at);

  Format format_;
  RepeatFormat format_repeats_;
  OutputSink& out_;
  std::string pending_;             // formatted text not written yet (printer thread only)
  uint64_t pending_sessions_ = 0;   // sessions in pending_
  uint64_t pending_repeats_ = 0;    // repeats counted by the RepeatGroup lines in pending_
  Clock::time_point flush_at_;      // when pending_ must be written at the latest
  uint64_t since_clock_check_ = 0;  // sessions formatted since the flush time was last checked
  // What the printer took from queue_ in one lock (printer thread only), and the bytes of those
  // already printed: queued_bytes_ counts them until the next take.
  std::deque<Item> batch_;
  size_t taken_bytes_ = 0;
  size_t max_queued_bytes_;
  Clock::duration flush_interval_;

  std::mutex mu_;
  std::condition_variable wake_;     // printer: work arrived or stop
  std::condition_variable drained_;  // finish(): the queue ran empty
  std::deque<Item> queue_;
  size_t queued_bytes_ = 0;
  bool draining_ = false;             // finish() called: exit once the queue is empty
  std::atomic<bool> abandon_{false};  // exit after the session being printed
  bool done_ = false;                 // the thread has printed its last session
  std::condition_variable exited_;    // stop_thread(): done_ turned true
  std::atomic<uint64_t> printed_{0};
  std::atomic<uint64_t> repeats_printed_{0};
  std::exception_ptr error_;  // set by the printer thread before done_
  std::atomic<bool> failed_{false};
  bool stuck_ = false;  // stop_thread() gave up waiting for the thread
  std::thread thread_;
};

}  // namespace retsnoop
