// Receiving: between activation and a stop request, sessions flow from the BPF ring buffer through
// decoding and the user-space filters (on this thread) to the printer thread. Every session BPF
// reports is accounted for: losses are reported live at most once per second, and exactly at exit.
#pragma once

#include <chrono>

#include "app/loss_report.h"
#include "app/session_filter.h"
#include "app/session_printer.h"
#include "app/stop_signal.h"
#include "attach/tracer_object.h"
#include "events/ringbuf_reader.h"

namespace retsnoop {

class Receiver {
 public:
  // format runs on the printer thread only.
  Receiver(TracerObject& obj, const FuncTable& funcs, const SessionFilter& filter,
           SessionPrinter::Format format);

  // Activates the tracer, says "Receiving data..." and receives until stop is requested. Then
  // it deactivates the tracer and gives the printer a short grace period for its backlog: a stop
  // request is obeyed promptly even during a flood, and what was not printed is counted.
  void run(StopSignal& stop);
  // The account of lost sessions (and with -v a summary) for the end of the run; call it after
  // detaching, once the BPF counters are final.
  std::string loss_report() const;

 private:
  using Clock = std::chrono::steady_clock;

  void on_session(Session&& s);
  void report_live();
  SessionCounts counts() const;

  TracerObject& obj_;
  const FuncTable& funcs_;
  const SessionFilter& filter_;
  SessionPrinter printer_;
  RingbufReader reader_;
  uint64_t filtered_ = 0;
  uint64_t queue_full_ = 0;
  SessionCounts last_live_;
  Clock::time_point last_live_at_;
};

}  // namespace retsnoop
