// Receiving: between activation and a stop request, sessions flow from the BPF ring buffer through
// decoding and the user-space filters (on this thread) to the printer thread. Every session BPF
// reports is accounted for: losses are reported live at most once per second, and exactly at exit.
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <unordered_set>
#include <vector>

#include "app/repeat_collector.h"
#include "app/stop_signal.h"
#include "attach/tracer_object.h"
#include "events/ringbuf_reader.h"
#include "filter/session_filter.h"
#include "output/loss_report.h"
#include "output/output_sink.h"
#include "output/session_printer.h"

namespace retsnoop {

// Why receiving ended.
enum class StopCause {
  Signal,        // a stop signal (StopSignal::signal_number() says which)
  OutputFailed,  // standard output can no longer be written (OutputSink::failure() says why)
  Finished,      // the run's own end: command mode's command ended, or a round of --zoom's
                 // live mode saw the failure it waits for
};

class Receiver {
 public:
  // format runs on the printer thread only, which writes to out.
  // on_process (-U) learns each process's first session as soon as it starts.
  // format_repeats, given with -C stacks.repeats=count, prints the repeats BPF counted after
  // the session they repeat, collected at least every second; on the printer thread too.
  Receiver(TracerObject& obj, const FuncTable& funcs, const SessionFilter& filter,
           SessionPrinter::Format format, OutputSink& out,
           RingbufReader::ProcessHandler on_process = {},
           const SessionPrinter::RepeatFormat& format_repeats = {});

  // Activates the tracer, says "Receiving data..." and receives until a stop is requested or
  // the output fails. Then it deactivates the tracer and gives the printer a short grace
  // period for its backlog: a stop request is obeyed promptly even during a flood or with a
  // reader that stopped reading, and what was not printed is counted.
  // Command mode and --zoom's live mode pass finished: once it says so, what the ring buffer
  // holds is received and printed before returning, the command's last sessions included.
  // printing_ready blocks until the printer can format (the symbols it names frames with are
  // loaded): the grace period starts after it, so a stop right after start-up still prints the
  // sessions that came.
  StopCause run(StopSignal& stop, const std::function<bool()>& finished = {},
                const std::function<void()>& printing_ready = {});
  // What became of every session, for the account at the end of the run; call it after
  // detaching, once the BPF counters are final.
  SessionCounts final_counts() const { return counts(); }
  // The printer thread did not stop (SessionPrinter::stuck()): the run must end without
  // destroying this receiver or what its format function uses.
  bool printer_stuck() const { return printer_.stuck(); }

 private:
  using Clock = std::chrono::steady_clock;

  void on_session(Session&& s);
  int poll(int timeout_ms);
  void drain();
  void collect_repeats(bool all);
  void note_short_user_stack(const Session& s);
  void report_live();
  SessionCounts counts() const;
  bool output_failed();

  TracerObject& obj_;
  OutputSink& out_;
  const FuncTable& funcs_;
  const SessionFilter& filter_;
  SessionPrinter printer_;
  RingbufReader reader_;
  std::vector<Session> batch_;  // sessions of the current poll, for the printer
  uint64_t filtered_ = 0;
  uint64_t queue_full_ = 0;
  std::optional<RepeatCollector> repeats_;
  // Sessions with repeats to come that were not printed: their repeats are not printed either.
  std::unordered_set<uint64_t> unprinted_firsts_;
  uint64_t repeats_unprinted_ = 0;
  Clock::time_point last_repeats_at_;
  bool short_user_stack_noted_ = false;
  SessionCounts last_live_;
  Clock::time_point last_live_at_;
  Clock::time_point last_output_check_;
};

}  // namespace retsnoop
