#include "app/session_printer.h"

#include <utility>

namespace retsnoop {

namespace {

// Heap footprint of a queued session, near enough: what the backlog limit counts.
size_t session_bytes(const Session& s) {
  return sizeof(Session) + s.calls.capacity() * sizeof(StackCall) +
         s.kstack.capacity() * sizeof(uint64_t) + s.lbr.capacity() * sizeof(LbrRecord) +
         s.trace.capacity() * sizeof(TraceRecord);
}

}  // namespace

SessionPrinter::SessionPrinter(Format format, std::FILE* out, size_t max_queued_bytes)
    : format_(std::move(format)),
      out_(out),
      max_queued_bytes_(max_queued_bytes),
      thread_([this] { run(); }) {}

SessionPrinter::~SessionPrinter() { stop_thread(); }

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
  stop_thread();
}

void SessionPrinter::stop_thread() {
  {
    std::lock_guard lock(mu_);
    abandon_ = true;
  }
  wake_.notify_one();
  if (thread_.joinable()) thread_.join();
}

void SessionPrinter::run() {
  Session s;
  while (next(s)) {
    write(format_(s));
    printed_.fetch_add(1, std::memory_order_relaxed);
  }
  std::fflush(out_);
  std::lock_guard lock(mu_);
  done_ = true;
  drained_.notify_all();
}

// False when the thread should stop: abandoned, or draining with nothing left.
bool SessionPrinter::next(Session& s) {
  std::unique_lock lock(mu_);
  wake_.wait(lock, [&] { return abandon_ || draining_ || !queue_.empty(); });
  if (abandon_ || queue_.empty()) return false;
  s = std::move(queue_.front());
  queue_.pop_front();
  queued_bytes_ -= session_bytes(s);
  return true;
}

// A backlog goes out in buffer-sized writes; once the queue is empty, what was printed shows at
// once, on a terminal or through a pipe alike.
void SessionPrinter::write(const std::string& text) {
  std::fwrite(text.data(), 1, text.size(), out_);
  bool caught_up;
  {
    std::lock_guard lock(mu_);
    caught_up = queue_.empty();
  }
  if (caught_up) std::fflush(out_);
}

}  // namespace retsnoop
