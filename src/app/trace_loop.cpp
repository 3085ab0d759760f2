#include "app/trace_loop.h"

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <memory>
#include <string>

#include "attach/attacher.h"
#include "events/ringbuf_reader.h"
#include "format/session_view.h"
#include "util/error.h"
#include "util/log.h"

namespace retsnoop {

namespace {

using Clock = std::chrono::steady_clock;

constexpr int kPollTimeoutMs = 100;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

int64_t mono_to_real_ns() {
  timespec mono, real;
  clock_gettime(CLOCK_MONOTONIC, &mono);
  clock_gettime(CLOCK_REALTIME, &real);
  return (int64_t(real.tv_sec) - mono.tv_sec) * 1000000000LL + (real.tv_nsec - mono.tv_nsec);
}

TracerConfig tracer_config(const Options& o, AttachKind kind) {
  TracerConfig c;
  c.kind = kind;
  c.success_stacks = o.success_stacks == SuccessStacks::Yes;
  c.emit_trace = o.trace;
  c.capture_lbr = o.lbr;
  c.min_duration_ns = o.longer_ms * 1000000ull;
  c.allow_pids = o.allow_pids;
  c.deny_pids = o.deny_pids;
  c.allow_comms = o.allow_comms;
  c.deny_comms = o.deny_comms;
  c.allow_errors = o.allow_errors;
  c.deny_errors = o.deny_errors;
  c.ringbuf_size = o.ringbuf_size;
  c.sessions_size = o.sessions_size;
  return c;
}

FormatOptions format_options(const Options& o, SymbLevel symb) {
  FormatOptions f;
  f.symb = symb;
  f.emit_addrs = o.stacks_emit_addrs;
  f.dec_offsets = o.stacks_dec_offs;
  f.unfiltered_stacks = o.stacks_unfiltered;
  f.calltrace = o.trace;
  f.lbr = o.lbr;
  f.lbr_max_count = o.lbr_max_count;
  return f;
}

void print_line(const char* text) {
  std::fputs(text, stdout);
  std::fflush(stdout);
}

void report_losses(const TracerObject& obj, const AssemblerStats& st) {
  rs_stats bpf = obj.stats();
  if (bpf.sessions_dropped || st.incomplete)
    std::fprintf(stderr,
                 "%llu sessions were dropped and %llu were incomplete, consider increasing "
                 "bpf.ringbuf-size (-C bpf.ringbuf-size=BYTES)\n",
                 (unsigned long long)bpf.sessions_dropped, (unsigned long long)st.incomplete);
  if (bpf.sessions_nomem)
    std::fprintf(stderr, "%llu sessions could not start, consider increasing bpf.sessions-size\n",
                 (unsigned long long)bpf.sessions_nomem);
  logf(LOG_INFO, "sessions: %llu reported, %llu broken by missed probes, %llu calls deeper than %d levels\n",
       (unsigned long long)st.sessions, (unsigned long long)bpf.sessions_broken,
       (unsigned long long)bpf.depth_overflow, RS_MAX_DEPTH);
}

}  // namespace

int trace_loop(const TraceLoopInputs& in, StopSignal& stop) {
  auto obj = std::make_unique<TracerObject>(tracer_config(in.opts, in.kind), in.funcs);
  auto attacher = in.kind == AttachKind::MultiKprobe ? make_multi_kprobe_attacher(*obj)
                                                    : make_kprobe_attacher(*obj);
  AttachOpts aopts;
  aopts.should_stop = [&] { return stop.requested(); };
  auto t0 = Clock::now();
  AttachResult res = attacher->attach(in.funcs, aopts);
  logf(LOG_INFO, "Attached %zu functions with %s in %.3f s (%zu skipped).\n", res.attached,
       attacher->name(), seconds_since(t0), res.skipped);

  FormatOptions fopts = format_options(in.opts, in.symb_level);
  FormatContext ctx{in.funcs, in.symbolizer, fopts};
  int64_t clock_offset = mono_to_real_ns();
  RingbufReader reader(obj->ringbuf_fd(), [&](Session&& s) {
    print_line(format_session(s, ctx, clock_offset).c_str());
  });

  if (!res.interrupted) {
    obj->activate();
    print_line("Receiving data...\n");
    while (!stop.requested()) {
      int n = reader.poll(kPollTimeoutMs);
      if (n < 0 && n != -EINTR) throw UserError(std::string("ring buffer poll failed: ") + std::strerror(-n));
    }
    obj->deactivate();
    reader.drain();
  }

  print_line("Detaching... ");
  auto t1 = Clock::now();
  attacher->detach();
  report_losses(*obj, reader.stats());
  attacher.reset();
  obj.reset();
  std::printf("DONE in %lld ms.\n",
              (long long)std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t1).count());
  return 0;
}

}  // namespace retsnoop
