#include "app/layer_configs.h"

#include <unistd.h>

#include <cstdint>

namespace retsnoop {

namespace {

// An -L too large for 64-bit nanoseconds must still mean "longer than any call", not wrap.
uint64_t ms_to_ns_saturated(uint64_t ms) {
  constexpr uint64_t kNsPerMs = 1000000;
  return ms > UINT64_MAX / kNsPerMs ? UINT64_MAX : ms * kNsPerMs;
}

TracerConfig tracer_options(const Options& o, const RunFacts& facts) {
  TracerConfig c{
      .kind = facts.kind,
      .uprobes = facts.uprobes,
      // Only single kprobes group into kprobe events; the trace loop checks tracefs too.
      .kprobe_events =
          o.kprobe_events.value_or(facts.kprobe_events_pay) && facts.kind == AttachKind::Kprobe,
      .success_stacks = o.success_stacks == SuccessStacks::Yes,
      .emit_trace = o.trace,
      .capture_lbr = facts.lbr,
      .interim_stacks = o.interim_stacks,
      .capture_ustack = o.user_stacks,
      .min_duration_ns = ms_to_ns_saturated(o.longer_ms),
      .arg_limits = o.arg_limits,
      .allow_pids = o.allow_pids,
      .deny_pids = o.deny_pids,
      .allow_comms = o.allow_comms,
      .deny_comms = o.deny_comms,
      .follow_command = !o.command.empty(),
      .ringbuf_size = o.ringbuf_size,
      .sessions_size = o.sessions_size,
      .count_repeats = o.count_repeats,
      .line_max = o.line_trace.empty() ? 0 : o.line_max_count,
  };
  // Collecting repeats walks a BPF map twice a second, and every walk ends in a failing bpf()
  // call: traced, retsnoop would report itself for as long as it runs.
  if (o.count_repeats) c.deny_pids.push_back(getpid());
  return c;
}

FormatOptions format_options(const Options& o, const RunFacts& facts) {
  return {
      .symb = facts.symb,
      .emit_addrs = o.stacks_emit_addrs,
      .dec_offsets = o.stacks_dec_offs,
      .unfiltered_stacks = o.stacks_unfiltered,
      .calltrace = o.trace,
      .lbr = facts.lbr,
      .lbr_max_count = size_t(o.lbr_max_count),
      .unfiltered_lbr = o.stacks_unfiltered || o.debug_full_lbr,
      .user_lines = o.symbolize != SymbLevel::None,
      .messages_max_len = o.messages_max_len,
  };
}

}  // namespace

PlanOptions plan_options(const Options& o) {
  PlanOptions p{
      .entry_globs = o.entry_globs,
      .allow_globs = o.allow_globs,
      .deny_globs = o.deny_globs,
      .presets = o.presets,
      .callee_globs = o.callee_globs,
      .max_callees = o.callees_max,
      .max_sites = o.callees_max_sites,
      .capture_args = o.capture_args,
  };
  p.user.ret = o.user_retval;
  // --arg-filter types its expressions against the entry functions' BTF prototypes.
  p.keep_btf = !o.arg_filters.empty();
  return p;
}

ZoomOptions zoom_options(const Options& o) {
  return {.rounds = o.zoom_rounds, .depth = o.zoom_depth};
}

LayerConfigs layer_configs(const Options& o, const RunFacts& facts) {
  return {
      .tracer = tracer_options(o, facts),
      .format = format_options(o, facts),
      .args = {.mode = o.arg_fmt_mode, .max_arg_width = o.arg_max_width, .limits = o.arg_limits},
      .report = {.json = o.json,
                 .summary = o.summary,
                 .summary_interval = std::chrono::seconds(o.summary_interval_s),
                 .export_trace = o.export_trace,
                 .export_folded = o.export_folded},
      .filter = {.errors = ErrorFilter(o.allow_errors, o.deny_errors),
                 .retvals = RetvalFilter(o.allow_retvals, o.deny_retvals)},
      .loop = {.capture_args = o.capture_args,
               .user_stacks = o.user_stacks,
               .count_repeats = o.count_repeats,
               .expedite_rcu = o.expedite_rcu && facts.kind != AttachKind::MultiKprobe,
               .debug_multi_kprobe = o.debug_multi_kprobe,
               .messages = o.messages_enabled,
               .messages_max_count = o.messages_max_count},
  };
}

}  // namespace retsnoop
