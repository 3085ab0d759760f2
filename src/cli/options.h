// Passive configuration produced by the command-line parser. Behaviour lives elsewhere.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "discovery/func_args.h"
#include "discovery/ret_kind.h"
#include "discovery/zoom_planner.h"
#include "filter/retval_range.h"
#include "format/arg_fmt_mode.h"
#include "kernel/attach_mode.h"
#include "symbolize/symb_level.h"

namespace retsnoop {

enum class SuccessStacks { Default, Yes, No };

struct Options {
  // Targeting. Each glob keeps the form the user typed: "name", "name [mod]", ":path", "@file".
  std::vector<std::string> entry_globs;
  std::vector<std::string> allow_globs;
  std::vector<std::string> deny_globs;
  std::vector<std::string> probes;        // -J SPEC or @FILE, as typed; see discovery/probe_spec.h
  std::vector<std::string> callee_globs;  // --callees GLOB[:DEPTH], as typed
  std::vector<std::string>
      presets;  // -c NAME, validated by the parser; see discovery/case_presets.h

  // Modes.
  bool trace = false;           // -T
  bool lbr = false;             // -R/-B/--lbr
  uint64_t lbr_flags = 0;       // ORed PERF_SAMPLE_BRANCH_* bits; 0 with lbr=true means the default
  int lbr_max_count = 0;        // 0: no limit
  bool interim_stacks = false;  // -I
  bool dry_run = false;
  bool user_stacks = false;             // -U
  bool capture_args = false;            // -A
  std::vector<std::string> line_trace;  // --line-trace GLOB: functions whose lines are traced
  AttachMode attach_mode = AttachMode::Default;

  // Filters.
  SuccessStacks success_stacks = SuccessStacks::Default;
  std::vector<int> allow_errors;  // positive errno values; 0 stands for NULL
  std::vector<int> deny_errors;
  std::vector<RetvalRange> allow_retvals;  // --allow-retval: the entry call's own result
  std::vector<RetvalRange> deny_retvals;   // --deny-retval
  std::vector<int> allow_pids;
  std::vector<int> deny_pids;
  std::vector<std::string> allow_comms;
  std::vector<std::string> deny_comms;
  std::vector<std::string>
      truncated_comms;                     // -n/-N names cut to the 15 characters the kernel keeps
  uint64_t longer_ms = 0;                  // -L, 0: off
  std::vector<std::string> arg_filters;    // --arg-filter EXPR, as typed; all must hold
  std::vector<std::string> allow_cgroups;  // --cgroup PATH
  std::vector<std::string> deny_cgroups;   // --no-cgroup PATH

  // Command mode: the command after "--" (argv, verbatim), run as run_as_user when given, else
  // as the user who ran sudo; only it and its descendants are traced.
  std::vector<std::string> command;
  std::string run_as_user;  // --user
  // --zoom[=ROUNDS]: rerun the command, each round tracing the callees of the deepest function
  // that failed in the one before; 0 when off.
  unsigned zoom_rounds = 0;

  // Symbolization, verbosity, misc.
  std::string kernel_path;             // -k
  std::optional<SymbLevel> symbolize;  // none given: inlines when a vmlinux with DWARF is found
  int verbosity = 0;                   // -v count
  // --debug FEATURE: one part's diagnostics on stderr whatever the verbosity.
  bool debug_multi_kprobe = false;  // multi-kprobe attach steps, and the functions a failure is for
  bool debug_full_lbr = false;      // every LBR record, none trimmed (as stacks.unfiltered does)
  bool debug_bpf = false;           // libbpf's log, the BPF verifier's included
  bool show_version = false;
  bool json = false;          // --json
  bool summary = false;       // --summary: unique failing stacks with counts at exit
  std::string export_trace;   // --export-trace=FILE: -T sessions as Chrome trace events
  std::string export_folded;  // --export-folded=FILE: failing stacks folded, for flame graphs
  bool help_shown = false;    // --help, --usage or --config-help was printed: the caller exits 0

  // -C KEY=VALUE settings.
  // 4 MiB: a consumer that drains it as fast as records arrive loses nothing even to a flood
  // (docs/performance.md), and its pages count twice in retsnoop's RSS (the ring is mapped twice
  // so that records wrap around).
  uint32_t ringbuf_size = 4u << 20;
  uint32_t sessions_size = 4096;
  // -K through tracefs kprobe events (where the kernel allows); unset: where they pay off
  // (kernel/attach_choice.h).
  std::optional<bool> kprobe_events;
  bool expedite_rcu = false;  // flip /sys/kernel/rcu_expedited while attaching and detaching
  bool stacks_emit_addrs = false;
  bool stacks_unfiltered = false;
  bool stacks_dec_offs = false;
  bool count_repeats = false;       // stacks.repeats=count: repeated failures counted in BPF
  uint32_t summary_interval_s = 0;  // with --summary: also report every N seconds; 0: at exit only
  ArgLimits arg_limits;             // args.max-*-size, args.capture-raw-ptrs
  ArgFmtMode arg_fmt_mode = ArgFmtMode::Compact;
  uint32_t arg_max_width = 120;      // args.fmt-max-arg-width; 0: no cut
  uint32_t line_max_count = 64;      // lines.max-count: line hits kept per session
  uint32_t callees_max = 1000;       // callees.max-functions: functions --callees may add
  uint32_t callees_max_sites = 512;  // callees.max-sites: indirect call sites --callees probes
  unsigned zoom_depth = kDefaultZoomDepth;  // zoom.depth: --callees depth of each --zoom round
  // user.retval: how user-space functions' results are judged; unset, their DWARF types decide.
  std::optional<RetKind> user_retval;
  bool messages_enabled = true;      // messages.enabled: the kernel's messages inside sessions
  uint32_t messages_max_count = 16;  // messages.max-count: kernel messages kept per session
  uint32_t messages_max_len = 200;   // messages.max-len: bytes of a kernel message's text
};

}  // namespace retsnoop
