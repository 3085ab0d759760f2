#include "cli/option_table.h"

#include <strings.h>

#include <algorithm>
#include <climits>
#include <string>
#include <vector>

#include "cli/lbr_flags.h"
#include "cli/retval_range_parser.h"
#include "cli/settings.h"
#include "cli/value_parsers.h"
#include "cli/word_file.h"
#include "discovery/case_presets.h"
#include "discovery/probe_spec.h"
#include "discovery/zoom_planner.h"
#include "util/errno_names.h"
#include "util/error.h"

namespace retsnoop {
namespace {

// Keys of options without a short form: above any character so getopt never confuses them.
enum LongOnlyKey {
  kLbrMaxCount = 256,
  kDryRun,
  kConfigHelp,
  kJson,
  kUsage,
  kAllowRetval,
  kDenyRetval,
  kSummary,
  kExportTrace,
  kExportFolded,
  kUser,
  kDebug,
  kArgFilter,
  kCgroup,
  kNoCgroup,
  kLineTrace,
  kCallees,
  kZoom,
};

enum Group { kTargeting = 1, kModes, kFilters, kMisc, kHelp };

// The preset tables belong to discovery; the parser only rejects names it doesn't know.
void add_preset(CliState& st, const char* arg) {
  auto names = case_preset_names();
  if (std::find(names.begin(), names.end(), std::string_view(arg)) == names.end())
    throw InvalidValue("expected one of " +
                       join_names(names, [](std::string_view n) { return n; }));
  st.opts.presets.emplace_back(arg);
}

void enable_lbr(CliState& st, const char* arg) {
  st.opts.lbr = true;
  if (arg) st.opts.lbr_flags |= parse_lbr_flags(arg);
}

// "@FILE" is read with the function globs, before any kernel access; a spec typed on the
// command line is checked here, where the error can name the option.
void add_probe(CliState& st, const char* arg) {
  if (arg[0] != '@') parse_probe_spec(arg);
  st.opts.probes.emplace_back(arg);
}

void set_attach_mode(CliState& st, AttachMode mode) {
  if (st.opts.attach_mode != AttachMode::Default && st.opts.attach_mode != mode) {
    throw UserError("-M, -K and -F are mutually exclusive");
  }
  st.opts.attach_mode = mode;
}

// NULL is 0 in the list; "any" (in any case) forgets earlier values, i.e. goes back to "every
// error".
void add_error(std::vector<int>& list, const char* arg) {
  if (strcasecmp(arg, "any") == 0) {
    list.clear();
    return;
  }
  auto err = errno_from_name(arg);
  if (!err) throw UserError("Unrecognized error '" + std::string(arg) + "'");
  list.push_back(*err);
}

// 0 is the idle tasks (one per CPU, TGID 0), whose sessions are interrupts taken while idle.
// A value that must not be empty, kept as typed; what names it says what was expected.
void add_nonempty(std::vector<std::string>& list, const char* arg, const char* what) {
  if (!*arg) throw InvalidValue(std::string("expected ") + what);
  list.emplace_back(arg);
}

void add_pid(std::vector<int>& list, const char* arg) {
  if (std::string_view(arg) == "0") return list.push_back(0);
  try {
    list.push_back(parse_positive(arg, INT_MAX));
  } catch (const InvalidValue&) {
    throw InvalidValue("expected an integer from 0 (the idle tasks) to " + std::to_string(INT_MAX));
  }
}

// TASK_COMM_LEN is 16 including the terminating NUL: the kernel keeps the first 15 characters of
// a longer name (an executable's file name, say), and so the filter compares those.
constexpr size_t kCommMax = 15;

void add_comm_name(CliState& st, std::vector<std::string>& list, std::string name) {
  if (name.size() > kCommMax) {
    name.resize(kCommMax);
    st.opts.truncated_comms.push_back(name);
  }
  list.push_back(std::move(name));
}

void add_comm(CliState& st, std::vector<std::string>& list, const char* arg) {
  if (arg[0] != '@') {
    if (!*arg) throw InvalidValue("expected a non-empty name");
    return add_comm_name(st, list, arg);
  }
  auto names = read_words_file(arg + 1);
  if (names.empty()) throw InvalidValue("the file lists no names");
  for (auto& name : names) add_comm_name(st, list, std::move(name));
}

// The level rides attached to -s, so "-ss" and "-sn" read naturally; long names work too.
SymbLevel symbolize_arg(const char* arg) {
  if (!arg) return SymbLevel::Lines;
  std::string_view level = arg;
  if (level == "s") return SymbLevel::Inlines;
  if (level == "n") return SymbLevel::None;
  try {
    return parse_symbolize_level(level);
  } catch (const InvalidValue&) {
    throw InvalidValue("expected -s, -ss, -sn or --symbolize=none|lines|inlines");
  }
}

// Upstream's --debug features, each mapped to the diagnostics of ours that serve its purpose.
struct DebugFeature {
  const char* name;
  bool Options::*flag;
};
constexpr DebugFeature kDebugFeatures[] = {
    {"multi-kprobe", &Options::debug_multi_kprobe},
    {"full-lbr", &Options::debug_full_lbr},
    {"bpf", &Options::debug_bpf},
};

void enable_debug(CliState& st, const char* arg) {
  for (const auto& f : kDebugFeatures) {
    if (std::string_view(arg) == f.name) {
      st.opts.*f.flag = true;
      return;
    }
  }
  throw InvalidValue("expected one of " +
                     join_names(kDebugFeatures, [](const DebugFeature& f) { return f.name; }));
}

const char* output_path(const char* arg) {
  if (!*arg) throw InvalidValue("expected a path");
  return arg;
}

void print_help(CliState& st, unsigned flags) {
  argp_state_help(st.argp, st.help_out, flags);
  st.opts.help_shown = true;
}

// Help text is the user's reference; the man page (packaging/retsnoop.8.scd.in, whose option
// terms come from this table) explains it at length.
const OptionSpec kOptions[] = {
    {{nullptr, 0, nullptr, 0, "Choosing functions:", kTargeting}, nullptr},
    {{"entry", 'e', "GLOB", 0,
      "Entry function(s): calling one starts a recording session on that thread. GLOB is a name "
      "glob ('*' and '?'), 'NAMEGLOB [MODGLOB]', ':PATHGLOB' (source files, needs DWARF) or "
      "@FILE. Repeatable."},
     [](CliState& st, const char* arg) { st.opts.entry_globs.emplace_back(arg); }},
    {{"allow", 'a', "GLOB", 0,
      "Non-entry function(s): recorded only inside an active session. Repeatable."},
     [](CliState& st, const char* arg) { st.opts.allow_globs.emplace_back(arg); }},
    {{"deny", 'd', "GLOB", 0, "Function(s) never traced; wins over -e and -a. Repeatable."},
     [](CliState& st, const char* arg) { st.opts.deny_globs.emplace_back(arg); }},
    {{"case", 'c', "NAME", 0, "Use a preset set of functions: bpf or perf. Repeatable."},
     add_preset},
    {{"callees", kCallees, "GLOB[:DEPTH]", 0,
      "Non-entry function(s) and the functions they call directly or tail-jump to, found in the "
      "running kernel's code, down to DEPTH levels (1 to 5, default 1). Only traceable, not "
      "denied functions are added; -C callees.max-functions caps them. Repeatable."},
     [](CliState& st, const char* arg) { st.opts.callee_globs.emplace_back(arg); }},
    {{"zoom", kZoom, "ROUNDS", OPTION_ARG_OPTIONAL,
      "Run the command up to ROUNDS times (1 to 100, default 10), each round tracing the "
      "failing chain found so far and the callees of its deepest function (-C zoom.depth), "
      "until that function's callees no longer fail: it is where the failure starts. Without "
      "-e, the first round traces every system call. Without a command, each round traces "
      "live until the failure comes (again)."},
     [](CliState& st, const char* arg) {
       st.opts.zoom_rounds =
           arg ? unsigned(parse_positive(arg, kMaxZoomRounds)) : kDefaultZoomRounds;
     }},

    {{nullptr, 0, nullptr, 0, "Modes (the stack trace is always shown):", kModes}, nullptr},
    {{"trace", 'T', nullptr, 0, "Also record and print the detailed function call trace."},
     [](CliState& st, const char*) { st.opts.trace = true; }},
    {{"call-stack", 'E', nullptr, 0,
      "Accepted for compatibility and ignored: the stack trace is always printed."},
     [](CliState&, const char*) {}},
    {{"lbr", 'R', "SPEC", OPTION_ARG_OPTIONAL,
      "Capture last branch records. SPEC: any, any_call, any_return (default), cond, call, "
      "ind_call, ind_jump, call_stack, abort_tx, in_tx, no_tx or a raw "
      "PERF_SAMPLE_BRANCH_* mask (decimal, 0x hex or 0 octal); repeat to combine. Needs a CPU "
      "that records branches (not usual in VMs) and Linux 5.16+; without them retsnoop says so "
      "and traces without branch records."},
     enable_lbr},
    {{nullptr, 'B', "SPEC", OPTION_ALIAS | OPTION_ARG_OPTIONAL}, enable_lbr},
    {{"lbr-max-count", kLbrMaxCount, "N", 0,
      "Print at most N of the most relevant LBR records (same as -C fmt.lbr-max-count=N)."},
     [](CliState& st, const char* arg) { st.opts.lbr_max_count = parse_positive(arg, INT_MAX); }},
    {{"line-trace", kLineTrace, "GLOB", 0,
      "Also record which source lines of the matching kernel functions ran in each session, "
      "from kprobes at the start of every line of their DWARF line table, and print them after "
      "the stack (and under their calls with -T). Needs a vmlinux with DWARF (-k); works where "
      "LBR does not. Repeatable; -C lines.max-count sets how many hits a session keeps."},
     [](CliState& st, const char* arg) {
       add_nonempty(st.opts.line_trace, arg, "a function name glob");
     }},
    {{"capture-args", 'A', nullptr, 0,
      "Also capture the arguments of every traced call, typed from BTF, and print them with "
      "its stack frame and -T row (-C args.* sets limits and format)."},
     [](CliState& st, const char*) { st.opts.capture_args = true; }},
    {{"inject-probe", 'J', "SPEC", 0,
      "Show hits of an extra probe in the call trace (-T; without it they are not injected) of "
      "sessions running on the same thread: kprobe:FUNC[+OFFSET], kretprobe:FUNC, "
      "tp:CATEGORY:NAME or rawtp:NAME (tracepoint names may be globs), or @FILE with one SPEC "
      "per line. Repeatable."},
     add_probe},
    {{"interim-stacks", 'I', nullptr, 0,
      "Also emit incomplete sessions when their data would be overwritten."},
     [](CliState& st, const char*) { st.opts.interim_stacks = true; }},
    {{"dry-run", kDryRun, nullptr, 0,
      "Discover and match functions (-v lists them), but load no BPF and attach nothing."},
     [](CliState& st, const char*) { st.opts.dry_run = true; }},
    {{"user-stacks", 'U', nullptr, 0,
      "Also capture the user-space stack of the thread whose call failed, and symbolize it from "
      "the process's binaries and libraries."},
     [](CliState& st, const char*) { st.opts.user_stacks = true; }},
    {{"kprobes-multi", 'M', nullptr, 0,
      "Attach with multi-kprobes (default; single kprobes when the kernel lacks them)."},
     [](CliState& st, const char*) { set_attach_mode(st, AttachMode::MultiKprobe); }},
    {{"kprobes", 'K', nullptr, 0, "Attach with single kprobes."},
     [](CliState& st, const char*) { set_attach_mode(st, AttachMode::Kprobe); }},
    {{"fentries", 'F', nullptr, 0, "Attach with fentry/fexit."},
     [](CliState& st, const char*) { set_attach_mode(st, AttachMode::Fentry); }},

    {{nullptr, 0, nullptr, 0, "Filters:", kFilters}, nullptr},
    {{"success-stacks", 'S', "y|n", OPTION_ARG_OPTIONAL,
      "Also report sessions that did not fail (-Sn: only failures, the default)."},
     [](CliState& st, const char* arg) {
       st.opts.success_stacks = !arg || parse_bool(arg) ? SuccessStacks::Yes : SuccessStacks::No;
     }},
    {{"allow-errors", 'x', "ERR", 0,
      "Report only failures returning one of these: Exxx, -Exxx or NULL; 'any' resets. "
      "Repeatable; conflicts with -S."},
     [](CliState& st, const char* arg) { add_error(st.opts.allow_errors, arg); }},
    {{"deny-errors", 'X', "ERR", 0, "Never report failures returning these; wins over -x."},
     [](CliState& st, const char* arg) { add_error(st.opts.deny_errors, arg); }},
    {{"allow-retval", kAllowRetval, "VAL", 0,
      "Report only sessions whose entry call returned VAL: Exxx, -Exxx, NULL, an integer or "
      "LO..HI. Repeatable; implies -S unless -Sn is given; applies together with -x/-X."},
     [](CliState& st, const char* arg) {
       st.opts.allow_retvals.push_back(parse_retval_range(arg));
     }},
    {{"deny-retval", kDenyRetval, "VAL", 0,
      "Never report sessions whose entry call returned VAL; wins over --allow-retval. Implies "
      "-S unless -Sn is given."},
     [](CliState& st, const char* arg) {
       st.opts.deny_retvals.push_back(parse_retval_range(arg));
     }},
    {{"pid", 'p', "PID", 0, "Only trace this process (0: the idle tasks). Repeatable."},
     [](CliState& st, const char* arg) { add_pid(st.opts.allow_pids, arg); }},
    {{"no-pid", 'P', "PID", 0, "Never trace this process; wins over -p. Repeatable."},
     [](CliState& st, const char* arg) { add_pid(st.opts.deny_pids, arg); }},
    {{"comm", 'n', "NAME", 0,
      "Only trace tasks with this comm, or the names listed in @FILE; like the kernel, only the "
      "first 15 characters count. Repeatable."},
     [](CliState& st, const char* arg) { add_comm(st, st.opts.allow_comms, arg); }},
    {{"no-comm", 'N', "NAME", 0, "Never trace tasks with this comm (or @FILE). Repeatable."},
     [](CliState& st, const char* arg) { add_comm(st, st.opts.deny_comms, arg); }},
    {{"arg-filter", kArgFilter, "EXPR", 0,
      "Open sessions only for entry calls whose arguments make EXPR true, a C expression over "
      "their BTF names: attr->map_type == BPF_MAP_TYPE_ARRAY. Repeatable: all must hold."},
     [](CliState& st, const char* arg) {
       add_nonempty(st.opts.arg_filters, arg, "an expression");
     }},
    {{"cgroup", kCgroup, "PATH", 0,
      "Only trace tasks in this cgroup-v2 directory or below it. Repeatable."},
     [](CliState& st, const char* arg) {
       add_nonempty(st.opts.allow_cgroups, arg, "a cgroup directory");
     }},
    {{"no-cgroup", kNoCgroup, "PATH", 0,
      "Never trace tasks in this cgroup-v2 directory or below it; wins over --cgroup. "
      "Repeatable."},
     [](CliState& st, const char* arg) {
       add_nonempty(st.opts.deny_cgroups, arg, "a cgroup directory");
     }},
    {{"user", kUser, "NAME", 0,
      "Command mode: run the command as this user (default: the user who ran sudo)."},
     [](CliState& st, const char* arg) {
       if (!*arg) throw InvalidValue("expected a user name");
       st.opts.run_as_user = arg;
     }},
    {{"longer", 'L', "MS", 0,
      "Only report sessions whose entry call took at least MS milliseconds."},
     [](CliState& st, const char* arg) { st.opts.longer_ms = parse_positive(arg); }},

    {{nullptr, 0, nullptr, 0, "Symbolization and miscellaneous:", kMisc}, nullptr},
    {{"kernel", 'k', "PATH", 0, "vmlinux with DWARF to use instead of searching the usual places."},
     [](CliState& st, const char* arg) {
       if (!*arg) throw InvalidValue("expected a path");
       st.opts.kernel_path = arg;
     }},
    {{"symbolize", 's', "LEVEL", OPTION_ARG_OPTIONAL,
      "-sn: kallsyms only; -s: plus file:line; -ss: plus inlined frames (default when a vmlinux "
      "with DWARF is found). Long form: --symbolize=none|lines|inlines."},
     [](CliState& st, const char* arg) { st.opts.symbolize = symbolize_arg(arg); }},
    {{"verbose", 'v', nullptr, 0, "More diagnostics; repeat (-vv, -vvv) for debug output."},
     [](CliState& st, const char*) { st.opts.verbosity++; }},
    {{"debug", kDebug, "FEATURE", 0,
      "Extra diagnostics on stderr, whatever -v says: multi-kprobe (each multi-kprobe attach step, "
      "and which functions a failing one was refused for), full-lbr (every LBR record, none "
      "trimmed as irrelevant) or bpf (libbpf's log, the BPF verifier's included). Repeatable."},
     enable_debug},
    {{"config", 'C', "KEY=VALUE", 0, "Change a setting; see --config-help. Repeatable."},
     [](CliState& st, const char* arg) { apply_setting(st.opts, arg); }},
    {{"json", kJson, nullptr, 0, "Print each session as one JSON object."},
     [](CliState& st, const char*) { st.opts.json = true; }},
    {{"summary", kSummary, nullptr, 0,
      "At exit, report the unique failing stacks with their counts, first and last seen, most "
      "frequent first (JSON with --json); -C summary.interval also reports them periodically."},
     [](CliState& st, const char*) { st.opts.summary = true; }},
    {{"export-trace", kExportTrace, "FILE", 0,
      "Also write the -T call traces to FILE as Chrome trace-event JSON (Perfetto, speedscope)."},
     [](CliState& st, const char* arg) { st.opts.export_trace = output_path(arg); }},
    {{"export-folded", kExportFolded, "FILE", 0,
      "At exit, write the failing stacks to FILE as folded stacks with counts, for flame graphs."},
     [](CliState& st, const char* arg) { st.opts.export_folded = output_path(arg); }},

    {{nullptr, 0, nullptr, 0, "Help and version:", kHelp}, nullptr},
    {{"version", 'V', nullptr, 0,
      "Print the version; with -v also detect kernel features and message sources."},
     [](CliState& st, const char*) { st.opts.show_version = true; }},
    {{"config-help", kConfigHelp, nullptr, 0, "List the settings -C accepts."},
     [](CliState& st, const char*) {
       std::fputs(settings_help().c_str(), st.help_out);
       st.opts.help_shown = true;
     }},
    {{"help", 'h', nullptr, 0, "Show this help."},
     [](CliState& st, const char*) { print_help(st, ARGP_HELP_STD_HELP); }},
    {{"usage", kUsage, nullptr, 0, "Show a short usage message."},
     [](CliState& st, const char*) { print_help(st, ARGP_HELP_USAGE); }},
};

}  // namespace

std::span<const OptionSpec> option_specs() { return kOptions; }

}  // namespace retsnoop
