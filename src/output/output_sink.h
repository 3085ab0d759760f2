// Standard output as a traced run writes it: sessions from the printer thread, status lines
// from the main thread. A reader that went away (`| head -1`, `| less` quit, a dropped ssh
// session), a full disk or a reader that stopped reading must end the run cleanly, never kill
// it with SIGPIPE or block it forever while probes are attached.
#pragma once

#include <pthread.h>

#include <atomic>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>

namespace retsnoop {

class OutputSink {
 public:
  explicit OutputSink(int fd);
  OutputSink(const OutputSink&) = delete;
  OutputSink& operator=(const OutputSink&) = delete;

  // Writes all of text, waiting for a slow reader; false when the output failed, now or
  // before, or was abandoned.
  bool write(std::string_view text);
  // For a short status line from a thread that must not block: written only when the output
  // can take it at once; false otherwise (the caller says it elsewhere).
  bool write_status(std::string_view text);
  // Makes a write() blocked in another thread return false, and every later one too; ends the
  // other waits first (end_waits()).
  void abandon();
  // What else the writer may wait for while formatting (the -U symbolizer worker): a stop that
  // cannot wait any longer calls end_waits(), which runs fn. An empty fn removes it. From any
  // thread.
  void set_wait_ender(std::function<void()> fn);
  void end_waits();
  // True when the output failed or was abandoned, or when its reader has gone (a pipe or
  // socket whose other end is closed, a hung-up terminal), which is found without writing.
  bool failed();
  // What failed() knew when last asked, or a write found since: no system call, so it may be
  // asked for every session.
  bool failure_known() const { return error_.load() != 0 || abandoned_.load(); }
  // Why the output failed: "Broken pipe", "No space left on device", ...; empty when it has not.
  std::string failure() const;
  // A terminal: someone reads along, so text goes out a line at a time rather than in batches.
  bool interactive() const { return interactive_; }
  // The signal abandon() interrupts a blocked write() with: its handler does nothing, so it
  // must stay unblocked in every thread.
  static int interrupt_signal();

 private:
  void fail(int err);

  int fd_;
  bool interactive_;
  std::atomic<int> error_{0};
  std::atomic<bool> abandoned_{false};
  std::mutex hook_mu_;
  std::function<void()> wait_ender_;
  std::mutex writer_mu_;  // guards writer_ and writing_
  pthread_t writer_{};
  bool writing_ = false;
};

}  // namespace retsnoop
