#include "app/trace_loop.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <future>
#include <memory>
#include <string>
#include <system_error>

#include "app/command.h"
#include "app/exit_status.h"
#include "app/receiver.h"
#include "attach/attacher.h"
#include "attach/indirect_probes.h"
#include "attach/injected_probe_links.h"
#include "attach/kernel_messages.h"
#include "attach/line_probe_links.h"
#include "attach/shared_knob.h"
#include "attach/uprobe_links.h"
#include "discovery/indirect_targets.h"
#include "discovery/kallsyms.h"
#include "discovery/kernel_btf.h"
#include "discovery/probe_keys.h"
#include "filter/session_filter.h"
#include "format/call_args.h"
#include "format/format_cache.h"
#include "kernel/attach_choice.h"
#include "kernel/bpf_charge_user.h"
#include "kernel/features.h"
#include "output/session_report.h"
#include "symbolize/awaiting_symbolizer.h"
#include "symbolize/process_recorder.h"
#include "symbolize/user_symbolizer.h"
#include "util/error.h"
#include "util/file_text.h"
#include "util/log.h"
#include "util/phase_timer.h"

namespace retsnoop {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

int64_t mono_to_real_ns() {
  timespec mono, real;
  clock_gettime(CLOCK_MONOTONIC, &mono);
  clock_gettime(CLOCK_REALTIME, &real);
  return (int64_t(real.tv_sec) - mono.tv_sec) * 1000000000LL + (real.tv_nsec - mono.tv_nsec);
}

bool has_probe(const ProbeTable& probes, InjectKind kind) {
  return std::any_of(probes.begin(), probes.end(),
                     [&](const ProbeSpec& p) { return p.kind == kind; });
}

// -A: function pointer arguments name their target when it is a function start in kallsyms,
// which is complete once the background read is done.
ArgRenderOptions arg_render_options(ArgRenderOptions a, const Kallsyms& ksyms,
                                    const std::shared_future<void>& ksyms_loaded) {
  a.name_addr = [&ksyms, ksyms_loaded](uint64_t addr) -> std::optional<std::string> {
    ksyms_loaded.wait();
    const KSym* sym = ksyms.find_by_addr(addr);
    if (!sym || sym->addr != addr) return std::nullopt;
    return std::string(sym->name());
  };
  return a;
}

// Status lines go to standard output like the sessions; when it can no longer take them (a
// reader gone or stuck), to stderr, so that the user still learns how the run ended.
void print_status(OutputSink& out, const std::string& text) {
  if (!out.write_status(text)) std::fputs(text.c_str(), stderr);
}

std::unique_ptr<Attacher> make_attacher(AttachKind kind, TracerObject& obj, const Kallsyms& ksyms,
                                        RunLock& run) {
  if (obj.kprobe_events()) return make_kprobe_event_attacher(obj, ksyms, run);
  switch (kind) {
    case AttachKind::MultiKprobe: return make_multi_kprobe_attacher(obj);
    case AttachKind::Fentry: return make_fentry_attacher(obj);
    case AttachKind::Kprobe: break;
  }
  return make_kprobe_attacher(obj);
}

// The -v line at the start is what scripts wait for to interrupt an attach in progress.
AttachResult attach_all(Attacher& attacher, const FuncTable& funcs, StopSignal& stop, bool debug) {
  logf(LOG_INFO, "attaching %zu functions with %s (start-up took %.2f s)...\n", funcs.size(),
       attacher.name(), process_age_s());
  auto t0 = Clock::now();
  AttachResult res;
  {
    ProgressMeter progress("Attaching... ", 2 * funcs.size(), ProgressMeter::Finish::Erase,
                           ProgressDisplay::stderr_if_terminal());
    AttachOpts aopts;
    aopts.should_stop = [&] { return stop.requested(); };
    aopts.progress = &progress;
    aopts.debug = debug;
    res = attacher.attach(funcs, aopts);
  }
  res.seconds = seconds_since(t0);
  logf(LOG_INFO, "attached %zu functions with %s in %.3f s (%zu skipped)\n", res.attached,
       attacher.name(), res.seconds, res.skipped);
  return res;
}

// Dropped hits break sessions silently; say how many, or that this kernel does not count them.
// Kprobe events count theirs on every kernel (kprobe_profile), and so do fentry programs
// (recursion_misses, 5.12, older than BPF cookies); perf-event kprobes since 6.7.
void report_missed_hits(const Attacher& attacher, const TracerObject& obj, AttachKind kind,
                        const Features& f) {
  if (!log_enabled(LOG_INFO)) return;
  bool counted =
      kind == AttachKind::Fentry || obj.kprobe_events() || f.has(Feature::ProbeMissCounters);
  if (counted)
    logf(LOG_INFO, "missed probe hits: %llu\n", (unsigned long long)attacher.missed_hits());
  else
    logf(LOG_INFO,
         "missed probe hits: not counted by this kernel for %s (Linux 6.7+ counts them)\n",
         attacher.name());
}

// Discovery read kallsyms only as far as planning needed (Kallsyms::load_text()); stacks need the
// rest (modules, BPF programs). Reading it while the tracer waits for sessions keeps it off the
// time to attach. Without it, frames outside vmlinux text stay unnamed.
std::shared_future<void> load_rest_in_background(Kallsyms& ksyms) {
  auto load = [&ksyms] {
    try {
      ksyms.load_rest();
    } catch (const UserError& e) {
      logf(LOG_WARN, "%s: frames outside vmlinux text stay unnamed\n", e.what());
    }
  };
  try {
    return std::async(std::launch::async, load).share();
  } catch (const std::system_error&) {
    // At a task limit: read on first use by the printer thread rather than fail.
    return std::async(std::launch::deferred, load).share();
  }
}

// fexit stacks run through BPF trampolines and programs that did not exist when discovery read
// kallsyms (or that reuse addresses of the feature probes' freed ones): the stack filter knows
// them by their [bpf] names. Once, before any session is symbolized.
void refresh_bpf_symbols(Kallsyms& ksyms) {
  auto t0 = Clock::now();
  if (!ksyms.reload_module("bpf")) {
    logf(LOG_WARN, "cannot re-read /proc/kallsyms (%s): stacks keep BPF trampoline frames\n",
         std::strerror(errno));
    return;
  }
  logf(LOG_DEBUG, "re-read [bpf] symbols in %.1f ms\n", seconds_since(t0) * 1000);
}

// Before the functions. Kprobe handlers sharing an address run newest first, and returns unwind
// in reverse order of entry: probes registered first hit after the kprobe or multi-kprobe entry
// handler of their function and before its exit handler, so "kprobe:f" and "kretprobe:f" show
// inside f's call. (An fentry trampoline runs after every kprobe at the same site.)
std::optional<InjectedProbeLinks> attach_probes(TracerObject& obj, const ProbeTable& table) {
  if (table.empty()) return std::nullopt;
  auto t0 = Clock::now();
  std::optional<InjectedProbeLinks> probes(std::in_place, obj, table);
  logf(LOG_INFO, "attached %zu injected probes in %.3f s\n", probes->count(), seconds_since(t0));
  return probes;
}

// Before the functions, like the injected probes. A line the kernel refuses to probe is left
// out: the other lines still tell which way the function went.
std::optional<LineProbeLinks> attach_lines(TracerObject& obj, const std::vector<LineProbe>& table) {
  if (table.empty()) return std::nullopt;
  auto t0 = Clock::now();
  std::optional<LineProbeLinks> lines(std::in_place, obj, table);
  logf(LOG_INFO, "attached %zu line probes in %.3f s\n", lines->count(), seconds_since(t0));
  if (!lines->skipped().empty())
    logf(LOG_WARN, "--line-trace: the kernel refused %zu of %zu line probes (-v lists them)\n",
         lines->skipped().size(), table.size());
  for (const SkippedLine& skip : lines->skipped()) {
    const LineProbe& p = table[skip.id];
    logf(LOG_INFO, "  skipped %s+0x%llx: %s\n", p.func.c_str(),
         (unsigned long long)(p.addr - p.func_addr), std::strerror(skip.err));
  }
  return lines;
}

void detach_all(Attacher& attacher) {
  ProgressMeter progress("Detaching... ", attacher.probe_count(), ProgressMeter::Finish::KeepLabel,
                         ProgressDisplay::stderr_if_terminal());
  attacher.detach(&progress);
}

// Expedited RCU while attaching or detaching, when asked for and useful: multi-kprobes wait for
// a few grace periods in all, single kprobes and trampolines for many.
std::optional<SharedKnob> hold_expedited_rcu(const TraceLoopInputs& in) {
  if (!in.cfg.loop.expedite_rcu) return std::nullopt;
  if (!in.state_dir || !in.run.registered()) {
    logf(LOG_WARN, "not expediting RCU: %s is unusable, so a crash could not undo it\n",
         kRunStateDir.c_str());
    return std::nullopt;
  }
  return std::optional<SharedKnob>(std::in_place, rcu_expedited_change(), *in.state_dir, in.run);
}

// Command mode, once everything is attached: the tracer records from the moment the command is
// released, and only for it and what it forks.
// With -U, the command's memory map is read at its exec, before it runs: a command that fails and
// exits at once may be gone before its first session's notice is read.
// Until its exec the command is not yet what a Ctrl-C is for: a stop signal then ends the run.
void start_command(Command& cmd, TracerObject& obj, StopSignal& stop, ProcessRecorder* recorder) {
  obj.activate();
  pid_t pid = cmd.start();
  obj.follow(pid);
  Command::AtExec at_exec;
  if (recorder) {
    at_exec = [recorder](pid_t p) {
      recorder->record(p, 0);
      recorder->wait_for(p, 0);
    };
  }
  if (!cmd.release(stop, at_exec)) return;
  stop.spare_first_interrupt(pid, cmd.own_session());
  logf(LOG_INFO, "started %s as PID %d\n", cmd.path().c_str(), int(pid));
}

// The printer or the -U process recorder still runs, blocked in the kernel (both read files that
// traced processes' owners serve, and a FUSE server may never answer): a thread that can be
// neither joined nor have its objects destroyed under it. Everything is detached by now, so the
// process ends here.
[[noreturn]] void end_with_stuck_thread(int status) {
  logf(LOG_ERROR, "a thread reading a traced process's files did not stop; ending without it\n");
  std::fflush(nullptr);
  _exit(status);
}

// The exit status, and the line that explains a failure.
int finish_status(StopCause cause, const StopSignal& stop, const OutputSink& out,
                  uint64_t unprinted, Command* cmd) {
  if (cause == StopCause::OutputFailed) {
    logf(LOG_ERROR, "cannot write to standard output: %s; stopped tracing\n",
         out.failure().c_str());
    return kExitOutputLost;
  }
  if (!out.failure().empty() && unprinted) {
    logf(LOG_ERROR, "cannot write to standard output: %s\n", out.failure().c_str());
    return kExitOutputLost;
  }
  if (cause == StopCause::Finished && cmd) return exit_status_of_command(*cmd->exit_status());
  if (cause == StopCause::Finished) return kExitOk;
  return exit_status_after_signal(stop.signal_number());
}

// What the BPF programs may use beyond Linux 5.10 (TracerConfig::caps). Only single kprobes
// read kretprobe_stacks, and its probe attaches a kretprobe and makes a call: other mechanisms
// skip it.
KernelCaps kernel_caps(const Features& f, AttachKind kind) {
  return {.cookie = f.has(Feature::BpfCookie),
          .func_ip = f.has(Feature::FuncIp),
          .task_btf = f.has(Feature::TaskBtf),
          .task_storage = f.has(Feature::TaskStorage),
          .atomic_fetch = f.has(Feature::AtomicFetch),
          .kretprobe_stacks = kind != AttachKind::Kprobe || f.has(Feature::KretprobeStacks),
          .session_kfunc_ctx = f.has(Feature::SessionKfuncCtx),
          .fentry_cookie = f.has(Feature::FentryCookie)};
}

// Kernels without bpf_get_func_ip() (before 5.15): the kprobe programs read the address of the
// running kprobe through two data symbols, past the text symbols that planning read.
void find_running_kprobe(Kallsyms& ksyms, TracerConfig& cfg) {
  ksyms.load_rest();
  cfg.current_kprobe_addr = ksyms.addr_of("current_kprobe");
  cfg.per_cpu_offset_addr = ksyms.addr_of("__per_cpu_offset");
  if (!cfg.current_kprobe_addr || !cfg.per_cpu_offset_addr)
    throw UserError(
        "single kprobes need current_kprobe and __per_cpu_offset from kallsyms on this kernel "
        "(no bpf_get_func_ip()), and kallsyms lists neither");
}

// Everything the BPF object needs to know before it loads: the options' part, then what this
// kernel and this run's plans add.
TracerConfig tracer_config(const TraceLoopInputs& in) {
  TracerConfig cfg = in.cfg.tracer;
  cfg.kprobe_session = in.features.has(Feature::KprobeSession);
  cfg.fentry_multi = cfg.kind == AttachKind::Fentry && in.features.has(Feature::FentryMulti);
  cfg.kprobe_events = cfg.kprobe_events && kprobe_events_usable();
  cfg.caps = kernel_caps(in.features, cfg.kind);
  cfg.kprobe_probes =
      has_probe(in.probes, InjectKind::Kprobe) || has_probe(in.probes, InjectKind::Kretprobe);
  cfg.tracepoint_probes = has_probe(in.probes, InjectKind::Tracepoint);
  cfg.raw_tracepoint_probes = has_probe(in.probes, InjectKind::RawTracepoint);
  for (const FuncArgs& plan : in.arg_plans) cfg.func_args.push_back(plan.to_bpf());
  for (const FuncArgs& plan : in.probe_arg_plans) cfg.probe_args.push_back(plan.to_bpf());
  if (in.arg_filters) cfg.arg_filters = *in.arg_filters;
  if (in.cgroups) {
    for (const CgroupDir& d : in.cgroups->dirs) cfg.cgroup_fds.push_back(d.fd.get());
    cfg.cgroups_allowed = in.cgroups->allowed;
  }
  if (!in.line_probes || in.line_probes->empty()) cfg.line_max = 0;
  if (!cfg.caps.func_ip && (cfg.kind == AttachKind::Kprobe || !in.probes.empty()))
    find_running_kprobe(in.ksyms, cfg);
  if (!cfg.caps.kretprobe_stacks && cfg.kind == AttachKind::Kprobe)
    cfg.kretprobe_trampoline_addr = in.ksyms.addr_of("kretprobe_trampoline");
  if (!cfg.caps.cookie && !in.probes.empty()) {
    cfg.probe_keys = plan_probe_keys(in.probes, in.ksyms);
    cfg.kretprobe_pre_handler_addr = in.ksyms.addr_of("pre_handler_kretprobe");
  }
  return cfg;
}

// -U: the user-space symbolizer, and the recorder that reads each new process's memory map.
struct UserStacks {
  std::unique_ptr<ProcessSymbolizer> symbols;
  std::unique_ptr<ProcessRecorder> recorder;
};

// -U: each process a session names is recorded (its memory map read) as it is seen.
RingbufReader::ProcessHandler process_handler(const UserStacks& user) {
  if (!user.recorder) return {};
  return
      [r = user.recorder.get()](uint32_t pid, uint64_t session_id) { r->record(pid, session_id); };
}

UserStacks user_stacks_for(const LoopOptions& o) {
  UserStacks u;
  if (!o.user_stacks) return u;
  u.symbols = std::make_unique<ProcessSymbolizer>();
  u.recorder = std::make_unique<ProcessRecorder>(*u.symbols);
  return u;
}

// What the printer thread formats sessions with, used by it alone, like everything the context
// lends.
struct Formatting {
  Formatting(const TraceLoopInputs& in, const std::shared_future<void>& ksyms_loaded,
             const HostIdentity& host, UserSymbols* user)
      : opts(in.cfg.format),
        symbolizer(in.symbolizer, ksyms_loaded),
        arg_opts(arg_render_options(in.cfg.args, in.ksyms, ksyms_loaded)),
        args{in.arg_plans, in.probe_arg_plans, arg_opts},
        ctx{in.funcs,
            symbolizer,
            opts,
            &host,
            in.probes,
            user,
            in.cfg.loop.capture_args ? &args : nullptr,
            &cache,
            in.line_probes ? *in.line_probes : kNoLineProbes} {}

  FormatOptions opts;
  AwaitingSymbolizer symbolizer;
  ArgRenderOptions arg_opts;
  ArgsContext args;
  FormatCache cache;
  FormatContext ctx;
};

void report_dropped_processes(const ProcessRecorder& recorder) {
  if (!recorder.dropped()) return;
  logf(LOG_INFO,
       "user stacks of %llu processes show addresses only: they came faster than their memory "
       "maps could be read\n",
       (unsigned long long)recorder.dropped());
}

void print_detach_done(OutputSink& out, Clock::time_point t0) {
  char done[64];
  std::snprintf(
      done, sizeof(done), "DONE in %lld ms.\n",
      (long long)std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0).count());
  print_status(out, done);
}

// messages.enabled: the kernel messages' programs, on the tracer's sessions.
std::unique_ptr<KernelMessages> load_messages(const TraceLoopInputs& in, const TracerConfig& cfg,
                                              const TracerObject& obj) {
  if (!in.cfg.loop.messages) return nullptr;
  PhaseTimer timer("kernel messages");
  return std::make_unique<KernelMessages>(KernelMessagesConfig{
      .maps = obj.session_maps(),
      .atomic_fetch = cfg.caps.atomic_fetch,
      .task_btf = cfg.caps.task_btf,
      .max_count = in.cfg.loop.messages_max_count,
      .has_function = [&](std::string_view name) { return !in.ksyms.find_by_name(name).empty(); },
      .in_btf = [btf = in.features.kernel_btf()](
                    std::string_view name) { return btf && btf->has_func("", name); },
  });
}

void report_dropped_messages(const KernelMessages* messages) {
  if (!messages || !messages->dropped()) return;
  logf(LOG_WARN,
       "%llu kernel messages were not kept: past -C messages.max-count in their session, or the "
       "ring buffer was full\n",
       (unsigned long long)messages->dropped());
}

// --callees: the probes that see where indirect call sites go, when there are sites. Only -v and
// --zoom's next round use what they see: without them they would cost every traced call for
// nothing. Without BPF cookies each site costs a program copy, as many as callees.max-sites.
std::unique_ptr<IndirectProbes> load_indirect(const TraceLoopInputs& in, const TracerConfig& cfg,
                                              const TracerObject& obj) {
  if (!in.indirect || in.indirect->sites.empty() || !(log_enabled(LOG_INFO) || in.watch))
    return nullptr;
  return std::make_unique<IndirectProbes>(IndirectProbesConfig{
      .maps = obj.session_maps(),
      .atomic_fetch = cfg.caps.atomic_fetch,
      .task_btf = cfg.caps.task_btf,
      .cookies = obj.has_cookies(),
      .sites = in.indirect->sites,
  });
}

// -v: where the probed indirect call sites went, named; --zoom: the callees they add.
void report_indirect_targets(const IndirectProbes* probes, const TraceLoopInputs& in,
                             const std::shared_future<void>& ksyms_loaded) {
  if (!probes) return;
  ksyms_loaded.wait();
  std::vector<SeenTarget> seen = probes->seen();
  IndirectTargets t = resolve_indirect_targets(*in.indirect, seen, in.ksyms);
  if (in.watch) in.watch->indirect_edges = t.edges();
  if (!log_enabled(LOG_INFO)) return;
  std::fputs(render_indirect_targets(t).c_str(), stderr);
  if (t.unnamed > 0)
    logf(LOG_INFO,
         "callees: %zu indirect targets seen at run time are no traceable, not denied function\n",
         t.unnamed);
  if (probes->dropped() > 0)
    logf(LOG_INFO, "callees: %llu indirect targets not counted: their map was full\n",
         (unsigned long long)probes->dropped());
}

// The loaded BPF object and everything attached to it, detached together.
struct Attached {
  Attached(const TraceLoopInputs& in, const TracerConfig& cfg)
      : obj(timed("BPF object load",
                  [&] { return std::make_unique<TracerObject>(cfg, in.funcs); })),
        messages(load_messages(in, cfg, *obj)),
        indirect(load_indirect(in, cfg, *obj)),
        probes(attach_probes(*obj, in.probes)),
        lines(in.line_probes ? attach_lines(*obj, *in.line_probes) : std::nullopt),
        attacher(make_attacher(in.cfg.tracer.kind, *obj, in.ksyms, in.run)) {}

  void attach(const TraceLoopInputs& in, StopSignal& stop) {
    // User-space functions follow the kernel's in the table, so the kernel's ids are its indexes.
    auto first_user = std::find_if(in.funcs.begin(), in.funcs.end(),
                                   [](const FuncInfo& f) { return f.is_user(); });
    FuncTable kernel_funcs(in.funcs.begin(), first_user);
    if (first_user != in.funcs.end()) uprobes.emplace(*obj, in.funcs);
    if (!kernel_funcs.empty()) {
      std::optional<SharedKnob> fast = hold_expedited_rcu(in);
      res = attach_all(*attacher, kernel_funcs, stop, in.cfg.loop.debug_multi_kprobe);
    }
    // The rest of kallsyms, read from here on, lists [bpf] as the attach left it; only a table
    // completed before attaching (module globs, no tracefs) needs those symbols read again.
    if (in.cfg.tracer.kind == AttachKind::Fentry && !res.interrupted && in.ksyms.complete())
      refresh_bpf_symbols(in.ksyms);
  }

  void detach(const TraceLoopInputs& in) {
    std::optional<SharedKnob> fast = hold_expedited_rcu(in);
    if (uprobes) uprobes->detach();
    if (probes) probes->detach();
    if (lines) lines->detach();
    messages.reset();
    indirect.reset();
    detach_all(*attacher);
  }

  std::unique_ptr<TracerObject> obj;
  std::unique_ptr<KernelMessages> messages;
  std::unique_ptr<IndirectProbes> indirect;
  std::optional<InjectedProbeLinks> probes;
  std::optional<LineProbeLinks> lines;
  std::optional<UprobeLinks> uprobes;
  std::unique_ptr<Attacher> attacher;
  AttachResult res;
};

// Whether the run ended by itself: command mode's command exited, or a --zoom round saw what it
// waits for; empty for a live run, which only a stop signal ends.
std::function<bool()> finish_check(Command* cmd, const RoundWatch* watch) {
  if (!cmd && !watch) return {};
  return [cmd, watch] {
    return (cmd && cmd->exit_status().has_value()) || (watch && watch->done.load());
  };
}

// --zoom: what the round did besides reporting sessions. A Ctrl-C that ended the command ends
// the zoom too: the user asked to stop, not for another round.
void tell_watch(const TraceLoopInputs& in, const AttachResult& res, StopCause cause,
                const StopSignal& stop) {
  if (!in.watch) return;
  in.watch->funcs = in.funcs.size();
  in.watch->attach_s = res.seconds;
  in.watch->stopped = cause != StopCause::Finished || stop.interrupt_spared();
}

// The printer may wait for the symbolizer worker only while the worker exists.
struct WaitEnderReset {
  OutputSink& out;
  ~WaitEnderReset() { out.set_wait_ender({}); }
};

}  // namespace

int trace_loop(const TraceLoopInputs& in, StopSignal& stop, OutputSink& out) {
  SessionReport report(in.cfg.report);
  // Every BPF object of the run is created from here to the end of the attach.
  std::unique_ptr<BpfChargeUser> charge = BpfChargeUser::take(in.features);
  Attached a(in, tracer_config(in));
  a.attach(in, stop);
  charge.reset();  // before the command starts: it must not inherit that uid
  std::shared_future<void> ksyms_loaded = load_rest_in_background(in.ksyms);

  UserStacks user = user_stacks_for(in.cfg.loop);
  // A printer still busy at the stop deadline may be waiting for the symbolizer worker: the
  // worker is killed then, and the printer prints the rest unsymbolized.
  WaitEnderReset wait_ender{out};
  if (user.symbols) out.set_wait_ender([&] { user.symbols->shutdown(); });
  Formatting fmt(in, ksyms_loaded, report.host(), user.symbols.get());
  int64_t clock_offset = mono_to_real_ns();
  SessionPrinter::RepeatFormat format_repeats;
  if (in.cfg.loop.count_repeats)
    format_repeats = [&](const RepeatGroup& g) { return report.repeats_text(g, clock_offset); };
  Receiver receiver(
      *a.obj, in.funcs, in.cfg.filter,
      [&](const Session& s, std::string& text) {
        if (user.recorder && !s.ustack.empty()) user.recorder->wait_for(s.pid, s.id);
        report.append(text, s, fmt.ctx, clock_offset);
        if (in.watch) in.watch->on_session(s, in.funcs, fmt.symbolizer);
      },
      out, process_handler(user), format_repeats);
  if (in.command && !a.res.interrupted)
    start_command(*in.command, *a.obj, stop, user.recorder.get());
  if (in.watch && in.watch->on_receiving && !a.res.interrupted) in.watch->on_receiving();
  StopCause cause = a.res.interrupted ? StopCause::Signal
                                      : receiver.run(stop, finish_check(in.command, in.watch),
                                                     [&] { ksyms_loaded.wait(); });
  // The printer is done or given up on: a symbolizer worker still reading must not outlive it.
  if (user.symbols) user.symbols->shutdown();

  report_missed_hits(*a.attacher, *a.obj, in.cfg.tracer.kind, in.features);
  report_dropped_messages(a.messages.get());
  report_indirect_targets(a.indirect.get(), in, ksyms_loaded);
  print_status(out, "Detaching... ");
  auto t1 = Clock::now();
  a.detach(in);
  SessionCounts counts = receiver.final_counts();
  a.attacher.reset();
  a.obj.reset();
  bool recorder_stuck =
      user.recorder && !user.recorder->stop(Clock::now() + ProcessRecorder::kWaitLimit);
  if (user.recorder) report_dropped_processes(*user.recorder);
  print_detach_done(out, t1);
  bool stuck = receiver.printer_stuck() || recorder_stuck;
  // A stuck printer may be in the middle of the report: its summary and exports stay unwritten.
  if (!stuck) print_status(out, report.finish());
  std::fputs(final_loss_report(counts).c_str(), stderr);
  if (log_enabled(LOG_INFO)) std::fputs(session_summary(counts).c_str(), stderr);
  tell_watch(in, a.res, cause, stop);
  int status = finish_status(cause, stop, out, counts.lost() + counts.counted_lost(), in.command);
  if (stuck) end_with_stuck_thread(status);
  return status;
}

}  // namespace retsnoop
