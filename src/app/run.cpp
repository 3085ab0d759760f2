#include "app/run.h"

#include <unistd.h>

#include <cstdio>
#include <memory>

#include "app/command.h"
#include "app/layer_configs.h"
#include "app/stop_signal.h"
#include "app/trace_loop.h"
#include "app/user_libraries.h"
#include "app/zoom.h"
#include "attach/cgroup_dirs.h"
#include "attach/kernel_messages.h"
#include "attach/lbr_perf_events.h"
#include "attach/leftovers.h"
#include "attach/run_registry.h"
#include "discovery/cu_globs.h"
#include "discovery/func_args_report.h"
#include "discovery/func_plan.h"
#include "discovery/kallsyms.h"
#include "discovery/kernel_btf.h"
#include "discovery/kernel_text.h"
#include "discovery/line_plan.h"
#include "discovery/line_plan_report.h"
#include "discovery/never_failing_entries.h"
#include "discovery/plan_report.h"
#include "discovery/probe_args_plan.h"
#include "discovery/probe_plan.h"
#include "discovery/vmlinux.h"
#include "filter/arg_filter_plan.h"
#include "kernel/attach_choice.h"
#include "kernel/features.h"
#include "kernel/libbpf_logging.h"
#include "kernel/privileges.h"
#include "kernel/rlimits.h"
#include "symbolize/dwarf_symbolizer.h"
#include "symbolize/ksym_symbolizer.h"
#include "symbolize/user_debug_info.h"
#include "util/cache_dir.h"
#include "util/error.h"
#include "util/log.h"
#include "util/phase_timer.h"
#include "util/text_escape.h"
#include "util/version.h"

namespace retsnoop {

namespace {

// -V -v and --dry-run -v: which kernel message sources this kernel has.
std::string message_sources(const Options& opts, const Kallsyms& ksyms, KernelBtf& btf) {
  return message_sources_report(
      [&](std::string_view name) { return !ksyms.find_by_name(name).empty(); },
      [&](std::string_view name) { return btf.has_func("", name); }, opts.messages_enabled);
}

int print_version(const Options& opts) {
  std::printf("retsnoop v%s\n", retsnoop_version());
  if (opts.verbosity > 0) {
    check_privileges();
    Features f = Features::detect();
    std::fputs((f.report() + uprobe_support(f) +
                message_sources(opts, Kallsyms::load_text(), *f.kernel_btf()))
                   .c_str(),
               stdout);
  }
  return 0;
}

// DWARF is mandatory only when asked for: -s/-ss given explicitly or a ':path' glob.
bool dwarf_required(const Options& o, const GlobSelection& sel) {
  bool explicit_lines = o.symbolize == SymbLevel::Lines || o.symbolize == SymbLevel::Inlines;
  return explicit_lines || sel.has_path_globs() || !o.line_trace.empty();
}

SymbLevel symb_level(const Options& o, bool have_dwarf) {
  return o.symbolize.value_or(have_dwarf ? SymbLevel::Inlines : SymbLevel::None);
}

LbrPerfEvents open_lbr(const Options& o, const Features& f) {
#if !defined(__x86_64__)
  // Branch records come from Intel's LBR through perf; arm64's BRBE would need its own filters.
  throw lbr_unavailable("retsnoop records branches on x86-64 only, not on this architecture");
#endif
  if (!f.has(Feature::BranchSnapshot))
    throw lbr_unavailable("this kernel has no bpf_get_branch_snapshot() (added in Linux 5.16)");
  return LbrPerfEvents(o.lbr_flags);
}

// Where nothing can record branches (virtual machines, other architectures, kernels before
// 5.16) tracing goes on without them, as upstream retsnoop does; one line says why at once,
// before the slow discovery, whatever the verbosity.
std::optional<LbrPerfEvents> start_lbr(const Options& o, const Features& f) {
  if (!o.lbr) return std::nullopt;
  try {
    std::optional<LbrPerfEvents> events(open_lbr(o, f));
    logf(LOG_INFO, "recording kernel branches on %zu CPUs\n", events->cpu_count());
    return events;
  } catch (const LbrUnavailable& e) {
    logf(LOG_WARN,
         "%s; tracing without branch records (--line-trace FUNC shows which source "
         "lines of FUNC ran, with no LBR needed)\n",
         e.what());
    return std::nullopt;
  }
}

std::unique_ptr<Symbolizer> make_symbolizer(const Kallsyms& ksyms,
                                            const std::optional<LoadedVmlinux>& vmlinux,
                                            SymbLevel level) {
  if (!vmlinux || level == SymbLevel::None) return std::make_unique<KsymSymbolizer>(ksyms);
  return std::make_unique<DwarfSymbolizer>(ksyms, *vmlinux, level);
}

void report_arg_plans(const FuncTable& funcs, const std::vector<FuncArgs>& plans) {
  if (!log_enabled(LOG_INFO)) return;
  for (const std::string& line : func_args_notes(funcs, plans)) logf(LOG_INFO, "%s", line.c_str());
}

void report_probe_arg_plans(const ProbeTable& probes, const std::vector<FuncArgs>& plans) {
  if (probes.empty() || !log_enabled(LOG_INFO)) return;
  for (const std::string& line : probe_args_notes(probes, plans))
    logf(LOG_INFO, "%s", line.c_str());
}

// Probe hits are rows of the call trace: without -T they would cost probe hits and show nowhere.
// The specs are still checked, so that a typo fails now rather than when -T is added.
std::vector<ProbeSpec> probes_to_inject(const Options& o) {
  std::vector<ProbeSpec> probes = parse_probe_args(o.probes);
  if (o.trace || probes.empty()) return probes;
  logf(LOG_WARN, "-J probe hits show only in the call trace (-T): not injecting them\n");
  return {};
}

void report_truncated_comms(const Options& o) {
  for (const std::string& name : o.truncated_comms)
    logf(LOG_INFO, "-n/-N: comparing the first 15 characters, '%s', as the kernel keeps no more\n",
         name.c_str());
}

// What the command line asked for, parsed before any kernel access.
struct Selection {
  GlobSelection globs;
  std::vector<ProbeSpec> probes;
};

// What discovery found: the symbols and DWARF that output needs, the functions to attach and the
// probes to inject.
struct Discovery {
  Kallsyms ksyms;
  std::optional<LoadedVmlinux> vmlinux;
  FuncPlan plan;
  ProbeTable probes;
  std::vector<FuncArgs> probe_args;  // -A: indexed like probes; empty without -A
  ArgFilterPlan arg_filters;         // --arg-filter; no programs without it
  LinePlan lines;                    // --line-trace; no probes without it

  std::string report(int verbosity) const {
    return render_plan(plan, vmlinux ? vmlinux->image->path() : "", verbosity) +
           render_probes(probes) + render_arg_filter_plan(arg_filters, plan.funcs) +
           render_line_plan(lines, verbosity);
  }
};

// --zoom: what a round read of the kernel that the rounds after it reuse instead of reading
// again (a second or two of each round's start-up). Only [bpf] changes in kallsyms from a round
// to the next, and each round reloads it once attached.
struct RoundCache {
  std::optional<Kallsyms> ksyms;
  TraceableCache traceable;
};

// The rest of kallsyms waits until attached (trace_loop()), or until a module function matches.
Kallsyms kernel_symbols(RoundCache* cache) {
  if (!cache || !cache->ksyms) return timed("kallsyms text", [] { return Kallsyms::load_text(); });
  Kallsyms ks = std::move(*cache->ksyms);
  cache->ksyms.reset();
  return ks;
}

// btf: the run's kernel BTF, parsed at most once for the whole run.
Discovery discover(const Options& opts, Selection sel, AttachKind kind,
                   std::shared_ptr<KernelBtf> btf, RoundCache* cache) {
  Discovery d{kernel_symbols(cache), std::nullopt, {}, {}};
  ProbeSources probe_sources;
  d.probes = timed("probes", [&] { return plan_probes(sel.probes, probe_sources, d.ksyms); });
  bool need_dwarf = dwarf_required(opts, sel.globs);
  if (need_dwarf || opts.symbolize != SymbLevel::None)
    d.vmlinux = timed("vmlinux DWARF", [&] {
      return load_vmlinux({opts.kernel_path, need_dwarf}, d.ksyms);
    });
  std::unique_ptr<CuGlobIndex> cu_index;
  if (d.vmlinux) cu_index = std::make_unique<CuGlobIndex>(d.vmlinux->image, default_cache_dir());
  PlanOptions plan_opts = plan_options(opts);
  plan_opts.btf = std::move(btf);
  plan_opts.source_index = cu_index.get();
  if (cache) plan_opts.traceable_cache = &cache->traceable;
  std::unique_ptr<KernelText> kernel_text;
  if (!opts.callee_globs.empty()) {
    kernel_text = open_kernel_text("/proc/kcore", d.vmlinux ? &*d.vmlinux : nullptr);
    if (kernel_text)
      logf(LOG_INFO, "--callees: decoding kernel code from %s\n", kernel_text->source().c_str());
    plan_opts.kernel_text = kernel_text.get();
  }
  // The sandboxed worker reads the user binaries' DWARF, and goes once planning is done.
  std::unique_ptr<WorkerUserDebugInfo> user_debug;
  plan_opts.user.libraries = user_library_lookup(opts, sel.globs.user);
  bool user_types = !opts.user_retval || opts.capture_args || !opts.arg_filters.empty();
  if (!sel.globs.user.empty() && user_types) {
    user_debug = std::make_unique<WorkerUserDebugInfo>();
    plan_opts.user.debug_info = user_debug.get();
  }
  plan_for_attach(plan_opts, kind);
  d.plan = timed("plan", [&] { return plan_functions(std::move(sel.globs), plan_opts, d.ksyms); });
  if (opts.capture_args) {
    report_arg_plans(d.plan.funcs, d.plan.args);
    d.probe_args = plan_probe_args(d.plan.btf->btf_of(""), d.probes, probe_sources.tracefs_dirs);
    report_probe_arg_plans(d.probes, d.probe_args);
  }
  if (!opts.arg_filters.empty()) {
    d.arg_filters = timed("argument filters", [&] {
      return plan_arg_filters(opts.arg_filters, d.plan.funcs, d.plan.user_args, *d.plan.btf,
                              plan_opts.tracefs_dirs);
    });
    for (const std::string& note : d.arg_filters.notes) logf(LOG_INFO, "%s\n", note.c_str());
  }
  if (!opts.line_trace.empty()) {
    d.lines = timed("line probes",
                    [&] { return plan_line_probes(opts.line_trace, *d.vmlinux, d.ksyms); });
    for (const std::string& note : d.lines.notes) logf(LOG_INFO, "%s\n", note.c_str());
  }
  if (opts.success_stacks != SuccessStacks::Yes) {
    for (const auto& line : never_failing_entry_warnings(d.plan.funcs))
      logf(LOG_WARN, "%s", line.c_str());
  }
  return d;
}

// --dry-run -v: the cgroups the gate checks tasks against.
std::string render_cgroups(const CgroupDirs& cgroups) {
  std::string out;
  for (size_t i = 0; i < cgroups.dirs.size(); ++i)
    out += std::string(i < cgroups.allowed ? "Only" : "Never") + " tasks in cgroup " +
           escaped(cgroups.dirs[i].path) + " (id " + std::to_string(cgroups.dirs[i].id) +
           ") and below\n";
  return out;
}

// Discovery and its report only. It stops before any BPF is loaded, feature probes included: only
// -F changes planning, and a dry run takes the mechanism the options ask for.
int dry_run(const Options& opts, Selection sel, const CgroupDirs& cgroups) {
  AttachKind kind =
      opts.attach_mode == AttachMode::Fentry ? AttachKind::Fentry : AttachKind::Kprobe;
  auto btf = std::make_shared<KernelBtf>();
  Discovery d = discover(opts, std::move(sel), kind, btf, nullptr);
  if (opts.verbosity > 0)
    std::fputs(
        (d.report(opts.verbosity) + render_cgroups(cgroups) + message_sources(opts, d.ksyms, *btf))
            .c_str(),
        stdout);
  return 0;
}

// Line probes are perf kprobes that know their line by the BPF cookie alone, and their rows
// are source lines.
void check_line_trace_support(const Options& o, const Features& f) {
  if (o.line_trace.empty()) return;
  if (o.symbolize == SymbLevel::None)
    throw UserError("--line-trace prints source lines: it cannot go with -sn");
  if (!f.has(Feature::BpfCookie))
    throw UserError("--line-trace needs BPF cookies on perf kprobes, which this kernel lacks",
                    "they came in Linux 5.15");
}

// A command that cannot run is refused before anything is attached. A dry run checks it too, and
// does not start it. Made before raise_rlimits(): the command keeps the limits retsnoop had.
std::optional<Command> make_command(const Options& o) {
  if (o.command.empty()) return std::nullopt;
  return std::optional<Command>(std::in_place, o.command,
                                command_user(o.run_as_user, system_accounts()));
}

// What every round of a run shares, set up once before the first.
struct RunSetup {
  const Features& features;
  AttachKind kind;
  bool lbr;                // a branch recorder is open
  bool kprobe_events_pay;  // RunFacts::kprobe_events_pay, decided (and told with -v) once
  const std::optional<RunStateDir>& state_dir;
  RunLock& run_lock;
  const CgroupDirs& cgroups;
};

// Discovery, then tracing until the command ends or a stop signal comes: the whole run, or one
// round of --zoom.
int trace_selection(const Options& opts, Selection sel, const RunSetup& setup, Command* command,
                    OutputSink& out, RoundWatch* watch, RoundCache* cache) {
  UprobeMode uprobes =
      sel.globs.user.empty() ? UprobeMode::None : choose_uprobe_mode(setup.features);
  Discovery d = discover(opts, std::move(sel), setup.kind, setup.features.kernel_btf(), cache);
  if (opts.verbosity > 0)
    timed("plan report", [&] { std::fputs(d.report(opts.verbosity).c_str(), stderr); });

  RunFacts facts{.kind = setup.kind,
                 .symb = symb_level(opts, d.vmlinux.has_value()),
                 .lbr = setup.lbr,
                 .uprobes = uprobes,
                 .kprobe_events_pay = setup.kprobe_events_pay};
  LayerConfigs cfg = layer_configs(opts, facts);
  auto symbolizer = make_symbolizer(d.ksyms, d.vmlinux, facts.symb);
  StopSignal stop;
  int status = trace_loop({.cfg = cfg,
                           .funcs = d.plan.funcs,
                           .arg_plans = d.plan.args,
                           .probes = d.probes,
                           .probe_arg_plans = d.probe_args,
                           .symbolizer = *symbolizer,
                           .ksyms = d.ksyms,
                           .features = setup.features,
                           .state_dir = setup.state_dir,
                           .run = setup.run_lock,
                           .command = command,
                           .arg_filters = opts.arg_filters.empty() ? nullptr : &d.arg_filters.progs,
                           .cgroups = &setup.cgroups,
                           .line_probes = &d.lines.probes,
                           .indirect = &d.plan.indirect,
                           .watch = watch},
                          stop, out);
  if (cache) {
    symbolizer.reset();  // it reads the table
    cache->ksyms = std::move(d.ksyms);
  }
  return status;
}

}  // namespace

int run(const Options& opts) {
  set_log_verbosity(opts.verbosity);
  if (log_enabled(LOG_DEBUG))
    logf(LOG_DEBUG, "phase exec to run: %.0f ms\n", process_age_s() * 1000);
  route_libbpf_logs(opts.debug_bpf);
  if (opts.show_version) return print_version(opts);
  // Bad globs, @FILEs and presets fail before the privilege check and any kernel access.
  Selection sel{timed("globs",
                      [&] {
                        return parse_selection(
                            plan_options(opts.zoom_rounds ? first_zoom_round(opts) : opts));
                      }),
                probes_to_inject(opts)};
  report_truncated_comms(opts);
  std::optional<Command> command = make_command(opts);
  check_privileges();
  // A dry run changes nothing but this: what dead runs left in the kernel goes first.
  std::optional<RunStateDir> state_dir = RunStateDir::open(kRunStateDir, !opts.dry_run);
  if (!remove_leftovers(state_dir)) state_dir.reset();
  CgroupDirs cgroups = open_cgroup_dirs(opts.allow_cgroups, opts.deny_cgroups);
  if (opts.dry_run) return dry_run(opts, std::move(sel), cgroups);
  RunLock run_lock(state_dir ? &*state_dir : nullptr);
  raise_rlimits();

  Features features = Features::detect();
  AttachKind kind = timed("feature probes", [&] {
    check_kernel_support(features);
    check_line_trace_support(opts, features);
    return choose_attach_kind(opts.attach_mode, features);
  });
  // Before the slow discovery, so that a machine without LBR says so at once; open until
  // trace_loop() has detached everything.
  std::optional<LbrPerfEvents> lbr_events = start_lbr(opts, features);
  bool kprobe_events_pay =
      kind == AttachKind::Kprobe && !opts.kprobe_events && kprobe_events_pay_off(features);
  RunSetup setup{features, kind,   lbr_events.has_value(), kprobe_events_pay, state_dir,
                 run_lock, cgroups};
  std::fflush(stdout);
  ZoomOptions zoom_opts = zoom_options(opts);
  if (zoom_opts.rounds) {
    RoundCache cache;
    RoundRunner round = [&](const Options& o, Command* cmd, OutputSink& out, RoundWatch& watch) {
      Selection round_sel{parse_selection(plan_options(o)), probes_to_inject(o)};
      return trace_selection(o, std::move(round_sel), setup, cmd, out, &watch, &cache);
    };
    return zoom(opts, zoom_opts, command ? &*command : nullptr, round,
                features.has(Feature::BpfCookie));
  }
  OutputSink out(STDOUT_FILENO);
  return trace_selection(opts, std::move(sel), setup, command ? &*command : nullptr, out, nullptr,
                         nullptr);
}

}  // namespace retsnoop
