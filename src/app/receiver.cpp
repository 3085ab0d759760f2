#include "app/receiver.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

#include "util/error.h"
#include "util/log.h"

namespace retsnoop {

namespace {

constexpr int kPollTimeoutMs = 100;
constexpr auto kLiveReportPeriod = std::chrono::seconds(1);
// How long a stop request waits for the printer's backlog.
constexpr auto kStopGrace = std::chrono::milliseconds(500);
// Decoded sessions waiting for the printer, about 700 bytes each in stack mode: a flood of a few
// hundred thousand fits; beyond that sessions are refused and counted.
constexpr size_t kMaxBacklogBytes = size_t(256) << 20;

}  // namespace

Receiver::Receiver(TracerObject& obj, const FuncTable& funcs, const SessionFilter& filter,
                   SessionPrinter::Format format)
    : obj_(obj),
      funcs_(funcs),
      filter_(filter),
      printer_(std::move(format), stdout, kMaxBacklogBytes),
      reader_(obj.ringbuf_fd(), [this](Session&& s) { on_session(std::move(s)); }) {}

void Receiver::on_session(Session&& s) {
  if (!filter_.reports(s, funcs_))
    ++filtered_;
  else if (!printer_.push(std::move(s)))
    ++queue_full_;
}

void Receiver::run(StopSignal& stop) {
  obj_.activate();
  std::fputs("Receiving data...\n", stdout);
  std::fflush(stdout);
  last_live_at_ = Clock::now();
  while (!stop.requested()) {
    int n = reader_.poll(kPollTimeoutMs);
    if (n < 0 && n != -EINTR)
      throw UserError(std::string("ring buffer poll failed: ") + std::strerror(-n));
    report_live();
  }
  obj_.deactivate();
  printer_.finish(Clock::now() + kStopGrace);
}

void Receiver::report_live() {
  Clock::time_point now = Clock::now();
  if (now - last_live_at_ < kLiveReportPeriod) return;
  SessionCounts c = counts();
  std::fputs(live_loss_line(last_live_, c).c_str(), stderr);
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
  return c;
}

std::string Receiver::loss_report() const {
  SessionCounts c = counts();
  std::string out = final_loss_report(c);
  if (!log_enabled(LOG_INFO)) return out;
  rs_stats bpf = obj_.stats();
  char summary[256];
  std::snprintf(summary, sizeof(summary),
                "Sessions: %llu reported, %llu printed, %llu filtered by "
                "-x/-X/--allow-retval/--deny-retval; %llu broken by missed probes; %llu calls "
                "deeper than %d levels.\n",
                (unsigned long long)c.reported, (unsigned long long)c.printed,
                (unsigned long long)c.filtered, (unsigned long long)bpf.sessions_broken,
                (unsigned long long)bpf.depth_overflow, RS_MAX_DEPTH);
  return out + summary;
}

}  // namespace retsnoop
