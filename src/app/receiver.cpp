#include "app/receiver.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

#include "util/error.h"
#include "util/log.h"

namespace retsnoop {

namespace {

// The longest a session waits in the ring buffer: the tracer wakes user space up only for a
// batch of them. A shorter wait wakes the reader up more often while probes are detached, taking
// CPU time from detaching (bench/attach.sh measures it).
constexpr int kPollTimeoutMs = 100;
// A reader that went away is noticed within this, even when no session is being printed.
constexpr auto kOutputCheckPeriod = std::chrono::milliseconds(100);
constexpr auto kLiveReportPeriod = std::chrono::seconds(1);
// How long a stop request waits for the printer's backlog.
constexpr auto kStopGrace = std::chrono::milliseconds(500);
// How long the end of a command (or of a --zoom round) waits for the printer: its sessions are
// the point of the run, only a reader that stopped reading may lose them.
constexpr auto kCommandExitGrace = std::chrono::seconds(10);
// Decoded sessions waiting for the printer, about 700 bytes each in stack mode: a flood of a few
// hundred thousand fits; beyond that sessions are refused and counted.
constexpr size_t kMaxBacklogBytes = size_t(256) << 20;
// -C stacks.repeats=count: the length of an interval. Repeats are collected two intervals after
// theirs began (RepeatCollector), so their line follows within a second.
constexpr auto kRepeatInterval = std::chrono::milliseconds(500);

}  // namespace

Receiver::Receiver(TracerObject& obj, const FuncTable& funcs, const SessionFilter& filter,
                   SessionPrinter::Format format, OutputSink& out,
                   RingbufReader::ProcessHandler on_process,
                   const SessionPrinter::RepeatFormat& format_repeats)
    : obj_(obj),
      out_(out),
      funcs_(funcs),
      filter_(filter),
      printer_(std::move(format), out, kMaxBacklogBytes, SessionPrinter::kFlushInterval,
               format_repeats),
      reader_(
          obj.ringbuf_fd(), [this](Session&& s) { on_session(std::move(s)); },
          std::move(on_process)) {
  if (format_repeats) repeats_.emplace(obj);
}

// The kernel unwinds user stacks by frame pointers: code built without them ends the stack after
// a frame or two. Said once, as it holds for every session of that code.
void Receiver::note_short_user_stack(const Session& s) {
  constexpr size_t kShortUserStack = 2;
  if (short_user_stack_noted_ || s.ustack.empty() || s.ustack.size() > kShortUserStack) return;
  short_user_stack_noted_ = true;
  logf(LOG_INFO,
       "a user stack of PID %u has %zu frame(s) only: code built without frame pointers "
       "(-fno-omit-frame-pointer) cuts user stacks short\n",
       s.pid, s.ustack.size());
}

void Receiver::on_session(Session&& s) {
  note_short_user_stack(s);
  if (filter_.reports(s, funcs_)) {
    batch_.push_back(std::move(s));
    return;
  }
  ++filtered_;
  if (s.repeats_counted) unprinted_firsts_.insert(s.id);
}

// The sessions of one poll go to the printer together (SessionPrinter::push()).
// Only a poll that may sleep lets session headers wake it: a reader still busy with earlier
// records would gain nothing from a wake-up, and each costs the traced CPU an irq_work.
int Receiver::poll(int timeout_ms) {
  if (timeout_ms) obj_.set_reader_waiting(true);
  int n = reader_.poll(timeout_ms);
  if (timeout_ms) obj_.set_reader_waiting(false);
  size_t queued = printer_.push(std::span<Session>(batch_));
  for (size_t i = queued; i < batch_.size(); ++i) {
    ++queue_full_;
    if (batch_[i].repeats_counted) unprinted_firsts_.insert(batch_[i].id);
  }
  batch_.clear();
  return n;
}

// The ring buffer is drained first: a group's first session must be queued before it.
void Receiver::collect_repeats(bool all) {
  if (!repeats_) return;
  Clock::time_point now = Clock::now();
  if (!all && now - last_repeats_at_ < kRepeatInterval) return;
  last_repeats_at_ = now;
  drain();
  for (RepeatGroup& g : all ? repeats_->collect_all() : repeats_->collect()) {
    if (unprinted_firsts_.erase(g.first_id))
      repeats_unprinted_ += g.count;
    else
      printer_.push(std::move(g));
  }
}

StopCause Receiver::run(StopSignal& stop, const std::function<bool()>& finished,
                        const std::function<void()>& printing_ready) {
  obj_.activate();
  out_.write("Receiving data...\n");
  last_live_at_ = last_output_check_ = last_repeats_at_ = Clock::now();
  StopCause cause = StopCause::Signal;
  while (!stop.requested()) {
    if (output_failed()) {
      cause = StopCause::OutputFailed;
      break;
    }
    if (finished && finished()) {
      cause = StopCause::Finished;
      break;
    }
    int n = poll(kPollTimeoutMs);
    if (n < 0 && n != -EINTR)
      throw UserError(std::string("cannot poll the BPF ring buffer: ") + std::strerror(-n));
    collect_repeats(false);
    report_live();
  }
  obj_.deactivate();
  // Session headers wake the reader only in batches, so the last sessions before a stop may
  // still wait in the ring buffer: they are printed too (in command mode, the command's sessions
  // all ended before it did).
  if (cause != StopCause::OutputFailed) drain();
  collect_repeats(true);
  if (printing_ready) printing_ready();
  auto grace = cause == StopCause::Finished ? kCommandExitGrace : kStopGrace;
  printer_.finish(Clock::now() + grace);
  return cause;
}

// Every record already in the ring buffer.
void Receiver::drain() {
  int n;
  while ((n = poll(0)) > 0 || n == -EINTR) {
  }
}

// Polled at most every kOutputCheckPeriod: under a flood the loop turns thousands of times a
// second.
bool Receiver::output_failed() {
  Clock::time_point now = Clock::now();
  if (now - last_output_check_ < kOutputCheckPeriod) return false;
  last_output_check_ = now;
  return out_.failed() || printer_.failed();
}

void Receiver::report_live() {
  Clock::time_point now = Clock::now();
  if (now - last_live_at_ < kLiveReportPeriod) return;
  SessionCounts c = counts();
  std::string lost = live_loss_line(last_live_, c);
  if (!lost.empty()) logf(LOG_WARN, "%s", lost.c_str());
  last_live_ = c;
  last_live_at_ = now;
}

SessionCounts Receiver::counts() const {
  rs_stats bpf = obj_.stats();
  const AssemblerStats& st = reader_.stats();
  SessionCounts c;
  c.reported = bpf.sessions_reported;
  c.dropped = bpf.sessions_dropped;
  c.not_started = bpf.sessions_nomem;
  c.received = st.sessions;
  c.incomplete = st.incomplete;
  c.filtered = filtered_;
  c.queue_full = queue_full_;
  c.printed = printer_.printed();
  c.counted = bpf.sessions_counted;
  c.counted_printed = printer_.repeats_printed();
  c.counted_unprinted = repeats_unprinted_;
  c.broken = bpf.sessions_broken;
  c.depth_overflow = bpf.depth_overflow;
  c.malformed = st.malformed;
  c.orphaned = st.orphaned;
  return c;
}

}  // namespace retsnoop
