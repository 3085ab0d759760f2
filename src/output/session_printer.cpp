#include "output/session_printer.h"

#include <system_error>
#include <utility>

#include "util/error.h"

namespace retsnoop {

namespace {

// Heap footprint of a queued session, near enough: what the backlog limit counts.
size_t session_bytes(const Session& s) {
  return sizeof(Session) + s.calls.capacity() * sizeof(StackCall) +
         s.kstack.capacity() * sizeof(uint64_t) + s.lbr.capacity() * sizeof(LbrRecord) +
         s.trace.capacity() * sizeof(TraceRecord);
}

// A backlog goes out in writes of about this size; a caught-up printer writes at once.
constexpr size_t kWriteChunk = 64 << 10;
// After the stop deadline, how long a session being formatted or written may take before its
// write is abandoned: longer than any formatting, shorter than a user's patience.
constexpr auto kAbandonGrace = std::chrono::milliseconds(300);

}  // namespace

SessionPrinter::SessionPrinter(Format format, OutputSink& out, size_t max_queued_bytes)
    : format_(std::move(format)), out_(out), max_queued_bytes_(max_queued_bytes) {
  try {
    thread_ = std::thread([this] { run(); });
  } catch (const std::system_error& e) {
    throw UserError(std::string("cannot start the printer thread: ") + e.what(),
                    "A task limit (systemd TasksMax, cgroup pids.max) leaves retsnoop too few threads.");
  }
}

SessionPrinter::~SessionPrinter() { stop_thread(Clock::now() + kAbandonGrace); }

bool SessionPrinter::push(Session&& s) {
  size_t bytes = session_bytes(s);
  {
    std::lock_guard lock(mu_);
    if (!queue_.empty() && queued_bytes_ + bytes > max_queued_bytes_) return false;
    queued_bytes_ += bytes;
    queue_.push_back(std::move(s));
  }
  wake_.notify_one();
  return true;
}

void SessionPrinter::finish(Clock::time_point deadline) {
  {
    std::unique_lock lock(mu_);
    draining_ = true;
    wake_.notify_one();
    drained_.wait_until(lock, deadline, [&] { return done_; });
  }
  stop_thread(std::max(deadline, Clock::now()) + kAbandonGrace);
  if (error_) std::rethrow_exception(error_);
}

void SessionPrinter::stop_thread(Clock::time_point abandon_at) {
  if (!thread_.joinable()) return;
  {
    std::unique_lock lock(mu_);
    abandon_ = true;
    wake_.notify_one();
    if (!exited_.wait_until(lock, abandon_at, [&] { return done_; })) {
      lock.unlock();
      out_.abandon();
    }
  }
  thread_.join();
}

// An exception must not leave the thread (that would end the process with probes attached):
// it goes to finish(), on the thread that detaches.
void SessionPrinter::run() {
  try {
    Session s;
    while (next(s)) write(format_(s));
    flush();
  } catch (...) {
    error_ = std::current_exception();
    failed_ = true;
  }
  std::lock_guard lock(mu_);
  done_ = true;
  drained_.notify_all();
  exited_.notify_all();
}

// False when the thread should stop: abandoned, draining with nothing left, or the output
// failed (whatever is queued can no longer be printed).
bool SessionPrinter::next(Session& s) {
  std::unique_lock lock(mu_);
  wake_.wait(lock, [&] { return abandon_ || draining_ || !queue_.empty(); });
  if (abandon_ || queue_.empty() || out_.failed()) return false;
  s = std::move(queue_.front());
  queue_.pop_front();
  queued_bytes_ -= session_bytes(s);
  return true;
}

// A backlog goes out in large writes; once the queue is empty, what was printed shows at
// once, on a terminal or through a pipe alike.
void SessionPrinter::write(std::string&& text) {
  if (pending_.empty())
    pending_ = std::move(text);
  else
    pending_ += text;
  ++pending_sessions_;
  bool caught_up;
  {
    std::lock_guard lock(mu_);
    caught_up = queue_.empty();
  }
  if (caught_up || pending_.size() >= kWriteChunk) flush();
}

// Sessions count as printed once their text is written whole.
void SessionPrinter::flush() {
  if (out_.write(pending_)) printed_.fetch_add(pending_sessions_, std::memory_order_relaxed);
  pending_.clear();
  pending_sessions_ = 0;
}

}  // namespace retsnoop
