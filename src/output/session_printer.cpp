#include "output/session_printer.h"

#include <map>
#include <span>
#include <system_error>
#include <utility>

#include "util/error.h"

namespace retsnoop {

namespace {

// -A captures: a tree node per call, and up to kilobytes of strings and buffers per argument.
size_t args_bytes(const std::map<uint32_t, CapturedArgs>& args) {
  constexpr size_t kTreeNode = 4 * sizeof(void*);  // links and colour of a std::map node
  size_t bytes = 0;
  for (const auto& [seq, a] : args) {
    bytes += kTreeNode + sizeof(std::map<uint32_t, CapturedArgs>::value_type) +
             a.slots.capacity() * sizeof(uint64_t) + a.lens.capacity() * sizeof(int32_t) +
             a.data.capacity() * sizeof(std::vector<uint8_t>);
    for (const auto& d : a.data) bytes += d.capacity();
  }
  return bytes;
}

// Heap footprint of a queued session, near enough: what the backlog limit counts.
size_t session_bytes(const Session& s) {
  return sizeof(Session) + s.calls.capacity() * sizeof(StackCall) +
         s.kstack.capacity() * sizeof(uint64_t) + s.ustack.capacity() * sizeof(uint64_t) +
         s.lbr.capacity() * sizeof(LbrRecord) + s.trace.capacity() * sizeof(TraceRecord) +
         s.lines.capacity() * sizeof(LineHit) + args_bytes(s.args) + args_bytes(s.probe_args);
}

size_t group_bytes(const RepeatGroup& g) {
  return sizeof(RepeatGroup) + g.tasks.capacity() * sizeof(RepeatTask);
}

size_t item_bytes(const std::variant<Session, RepeatGroup>& item) {
  if (const Session* s = std::get_if<Session>(&item)) return session_bytes(*s);
  return group_bytes(std::get<RepeatGroup>(item));
}

// A backlog goes out in writes of about this size; a caught-up printer writes at once.
constexpr size_t kWriteChunk = 64 << 10;
// Within a batch taken from the queue, the flush time is checked every this many sessions: a clock
// read costs as much as formatting a stack row (more where the clock source has no vDSO), and
// this many sessions are formatted in well under a millisecond.
constexpr uint64_t kClockCheckPeriod = 32;
// After the stop deadline, how long a session being formatted or written may take before its
// write is abandoned: longer than any formatting, shorter than a user's patience.
constexpr auto kAbandonGrace = std::chrono::milliseconds(300);

}  // namespace

SessionPrinter::SessionPrinter(Format format, OutputSink& out, size_t max_queued_bytes,
                               Clock::duration flush_interval, RepeatFormat format_repeats)
    : format_(std::move(format)),
      format_repeats_(std::move(format_repeats)),
      out_(out),
      max_queued_bytes_(max_queued_bytes),
      flush_interval_(flush_interval) {
  try {
    thread_ = std::thread([this] { run(); });
  } catch (const std::system_error& e) {
    throw UserError(
        std::string("cannot start the printer thread: ") + e.what(),
        "A task limit (systemd TasksMax, cgroup pids.max) leaves retsnoop too few threads.");
  }
}

// A thread that would not stop is left to the end of the process, which follows: joining it could
// wait forever.
SessionPrinter::~SessionPrinter() {
  stop_thread(Clock::now() + kAbandonGrace);
  if (stuck_) thread_.detach();
}

bool SessionPrinter::push(Session&& s) { return push(std::span<Session>(&s, 1)) == 1; }

// One lock and at most one wake-up for the lot: a printer that keeps up with the receiver would
// otherwise sleep and be woken again for every session.
size_t SessionPrinter::push(std::span<Session> batch) {
  std::unique_lock lock(mu_);
  bool was_empty = queue_.empty();
  size_t queued = 0;
  for (Session& s : batch) {
    size_t bytes = session_bytes(s);
    if (!fits(bytes)) break;
    queued_bytes_ += bytes;
    queue_.push_back(std::move(s));
    ++queued;
  }
  lock.unlock();
  if (was_empty && queued) wake_.notify_one();
  return queued;
}

// Nothing queued or being printed: a session larger than the limit is still taken.
bool SessionPrinter::fits(size_t bytes) const {
  return queued_bytes_ == 0 || queued_bytes_ + bytes <= max_queued_bytes_;
}

void SessionPrinter::push(RepeatGroup&& g) {
  std::unique_lock lock(mu_);
  size_t bytes = group_bytes(g);
  enqueue(std::move(g), bytes, lock);
}

// The printer sleeps only on an empty queue: a session queued behind others needs no wake-up,
// which under a flood saves a futex call and a context switch per session.
void SessionPrinter::enqueue(Item&& item, size_t bytes, std::unique_lock<std::mutex>& lock) {
  bool was_empty = queue_.empty();
  queued_bytes_ += bytes;
  queue_.push_back(std::move(item));
  lock.unlock();
  if (was_empty) wake_.notify_one();
}

void SessionPrinter::finish(Clock::time_point deadline) {
  {
    std::unique_lock lock(mu_);
    draining_ = true;
    wake_.notify_one();
    // Past the deadline nothing more is taken from the queue, and what the printer waits for
    // besides the output (the -U symbolizer) ends: the session being formatted goes out with
    // what it has.
    if (!drained_.wait_until(lock, deadline, [&] { return done_; })) {
      abandon_ = true;
      lock.unlock();
      out_.end_waits();
    }
  }
  stop_thread(std::max(deadline, Clock::now()) + kAbandonGrace);
  if (error_ && !stuck_) std::rethrow_exception(error_);
}

// A write abandoned returns at once; a thread blocked anywhere else gets one more grace period
// before it is given up on.
void SessionPrinter::stop_thread(Clock::time_point abandon_at) {
  if (!thread_.joinable()) return;
  std::unique_lock lock(mu_);
  abandon_ = true;
  wake_.notify_one();
  auto exited = [&] { return done_; };
  if (!exited_.wait_until(lock, abandon_at, exited)) {
    lock.unlock();
    out_.abandon();
    lock.lock();
    if (!exited_.wait_for(lock, kAbandonGrace, exited)) {
      stuck_ = true;
      return;
    }
  }
  lock.unlock();
  thread_.join();
  stuck_ = false;
}

// An exception must not leave the thread (that would end the process with probes attached):
// it goes to finish(), on the thread that detaches. Sessions are formatted where they wait in
// the batch: a Session is large to move.
void SessionPrinter::run() {
  try {
    for (Next n; (n = next()) != Next::Stop;) {
      if (n == Next::FlushDue) {
        flush();
        continue;
      }
      format(batch_.front());
      taken_bytes_ += item_bytes(batch_.front());
      batch_.pop_front();
    }
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

// Stop when the thread should stop: abandoned, draining with nothing left, or the output
// failed (whatever is queued can no longer be printed). A reader that went away is found by the
// receiver's periodic check or by the next write: a poll() per session would cost a system call
// each under a flood.
SessionPrinter::Next SessionPrinter::next() {
  if (abandon_ || out_.failure_known()) return Next::Stop;
  if (!batch_.empty()) return Next::Item;
  return take_queue();
}

// Everything queued, in one lock. FlushDue when the buffered text has waited its flush interval
// with no session arriving.
SessionPrinter::Next SessionPrinter::take_queue() {
  std::unique_lock lock(mu_);
  queued_bytes_ -= std::exchange(taken_bytes_, 0);
  auto ready = [&] { return abandon_ || draining_ || !queue_.empty(); };
  if (pending_.empty())
    wake_.wait(lock, ready);
  else if (!wake_.wait_until(lock, flush_at_, ready))
    return Next::FlushDue;
  if (abandon_ || queue_.empty() || out_.failure_known()) return Next::Stop;
  batch_.swap(queue_);
  return Next::Item;
}

// Formatted straight into the buffer of text to write: no string of its own per session. A
// backlog goes out in large writes. Caught up, a terminal gets each session at once; a file or
// pipe gets what piled up within the flush interval in one write, which under a flood of
// sessions saves a system call per session.
void SessionPrinter::format(const Item& item) {
  // A buffer just written gets its deadline from its first session.
  if (pending_.empty()) flush_at_ = Clock::now() + flush_interval_;
  if (const Session* s = std::get_if<Session>(&item)) {
    format_(*s, pending_);
    ++pending_sessions_;
  } else {
    const RepeatGroup& g = std::get<RepeatGroup>(item);
    if (format_repeats_) pending_ += format_repeats_(g);
    pending_repeats_ += g.count;
  }
  if (pending_.size() >= kWriteChunk || flush_due() || (out_.interactive() && caught_up())) flush();
}

bool SessionPrinter::flush_due() {
  // The last session of a batch is checked too: the printer may wait for the next one next.
  if (++since_clock_check_ < kClockCheckPeriod && batch_.size() > 1) return false;
  since_clock_check_ = 0;
  return Clock::now() >= flush_at_;
}

// Nothing left to format after the session just written.
bool SessionPrinter::caught_up() {
  if (batch_.size() > 1) return false;
  std::lock_guard lock(mu_);
  return queue_.empty();
}

// Sessions count as printed once their text is written whole.
void SessionPrinter::flush() {
  if (out_.write(pending_)) {
    printed_.fetch_add(pending_sessions_, std::memory_order_relaxed);
    repeats_printed_.fetch_add(pending_repeats_, std::memory_order_relaxed);
  }
  pending_.clear();
  pending_sessions_ = pending_repeats_ = 0;
}

}  // namespace retsnoop
