#include "cli/settings.h"

#include <bit>
#include <climits>

#include "bpf/abi.h"
#include "cli/value_parsers.h"
#include "discovery/callee_spec.h"

namespace retsnoop {
namespace {

constexpr const char* kConfigHint = "try 'retsnoop --config-help' for the list of settings";

struct Setting {
  const char* key;
  std::string (*values)();  // the accepted range, as --config-help shows it
  const char* doc;
  void (*apply)(Options& opts, std::string_view value);
  std::string (*show)(const Options& opts);
  std::vector<std::string> words = {};  // completion candidates, when the values are a choice
};

// The kernel takes the ring buffer size as the u32 max_entries of the map, a power of two of at
// least one page (libbpf rounds 4K up to larger pages): 2G is the largest such power.
constexpr uint64_t kMinRingbufSize = 4096;
constexpr uint64_t kMaxRingbufSize = 1ull << 31;

// Sessions are keyed by thread (by CPU for the idle tasks), so no more can be open at once than
// the kernel can have threads: PID_MAX_LIMIT, 4M on 64-bit. The map is preallocated at about
// 6 KiB per session (the call chains, kernel stack and LBR records of struct session in
// bpf/session_table.bpf.h), so even this bound asks for 24 GiB; the load says when the kernel
// can't.
constexpr uint64_t kMaxSessions = 1u << 22;

// Far more functions than a kernel has: the bound only keeps the count a plain number.
constexpr uint32_t kMaxCallees = 1u << 20;

// A day: a service that wants rarer reports restarts more often than that anyway.
constexpr uint32_t kMaxSummaryInterval = 86400;

uint32_t parse_seconds(std::string_view value) {
  if (value == "0") return 0;
  try {
    return parse_positive(value, kMaxSummaryInterval);
  } catch (const InvalidValue&) {
    throw InvalidValue("expected a number of seconds from 0 to " +
                       std::to_string(kMaxSummaryInterval));
  }
}

uint32_t parse_ringbuf_size(std::string_view value) {
  uint64_t size = parse_byte_size(value);
  if (size < kMinRingbufSize || size > kMaxRingbufSize || !std::has_single_bit(size))
    throw InvalidValue("expected a power of two from 4096 to 2G");
  return size;
}

std::string show_byte_size(uint64_t bytes) {
  if (bytes % (1 << 20) == 0) return std::to_string(bytes >> 20) + "M";
  if (bytes % (1 << 10) == 0) return std::to_string(bytes >> 10) + "K";
  return std::to_string(bytes);
}

std::string show_bool(bool value) { return value ? "yes" : "no"; }

std::string bool_values() { return kBoolChoices; }
std::string auto_bool_values() { return std::string("auto, or ") + kBoolChoices; }
std::string ringbuf_values() {
  return "a power of two from 4K to 2G, with an optional K, M or G suffix";
}
std::string sessions_values() { return "1 to " + std::to_string(kMaxSessions); }
std::string line_count_values() { return "1 to " + std::to_string(RS_MAX_LINES); }
std::string callee_count_values() { return "1 to " + std::to_string(kMaxCallees); }
std::string site_count_values() { return "1 to " + std::to_string(RS_INDIRECT_MAX_SITES); }
std::string zoom_depth_values() { return "1 to " + std::to_string(kMaxCalleeDepth); }
std::string int_values() { return "1 to " + std::to_string(INT_MAX); }
// Bounds that keep a session's messages within what a terminal shows.
constexpr uint32_t kMaxMessages = 1024;
constexpr uint32_t kMaxMessageLen = 4096;
std::string message_count_values() { return "1 to " + std::to_string(kMaxMessages); }
std::string message_len_values() { return "1 to " + std::to_string(kMaxMessageLen); }
std::string seconds_values() {
  return "0 (at exit only) to " + std::to_string(kMaxSummaryInterval) + " seconds";
}

// 0 turns the cut off; wider than a wide terminal line would only wrap.
constexpr uint32_t kMaxArgWidth = 250;

uint32_t parse_arg_width(std::string_view value) {
  if (value == "0") return 0;
  try {
    return parse_positive(value, kMaxArgWidth);
  } catch (const InvalidValue&) {
    throw InvalidValue("expected an integer from 0 to " + std::to_string(kMaxArgWidth));
  }
}

std::string total_args_values() { return "1 to " + std::to_string(RS_MAX_ARGS_DATA) + " bytes"; }
std::string arg_size_values() { return "1 to " + std::to_string(RS_MAX_ARG_DATA) + " bytes"; }
std::string arg_width_values() {
  return "0 (no cut) to " + std::to_string(kMaxArgWidth) + " characters";
}

std::string show_symbolize(std::optional<SymbLevel> level) {
  return level ? symbolize_level_name(*level)
               : "inlines when a vmlinux with DWARF is found, else none";
}

std::string repeats_values() { return "print (every session in full) or count"; }

const std::vector<std::string> kBoolWords = {"yes", "no"};
const std::vector<std::string> kAutoBoolWords = {"auto", "yes", "no"};
const std::vector<std::string> kRepeatsWords = {"print", "count"};
const std::vector<std::string> kSymbolizeWords = {"none", "lines", "inlines"};
const std::vector<std::string> kFmtModeWords = {"compact", "multiline", "verbose"};
const std::vector<std::string> kUserRetvalWords = {"dwarf", "errno", "int", "ptr"};

std::string user_retval_values() { return "dwarf, errno, int or ptr"; }

const Setting kSettings[] = {
    {"bpf.ringbuf-size", ringbuf_values, "Size of the BPF ring buffer carrying records, in bytes.",
     [](Options& o, std::string_view v) { o.ringbuf_size = parse_ringbuf_size(v); },
     [](const Options& o) { return show_byte_size(o.ringbuf_size); }},
    {"bpf.sessions-size", sessions_values,
     "How many sessions can be recorded at the same time. Up to half as many threads recording at "
     "once are never refused; with all of them, about one session in 20 finds no slot near its "
     "thread's and counts as one that could not start.",
     [](Options& o, std::string_view v) { o.sessions_size = parse_positive(v, kMaxSessions); },
     [](const Options& o) { return std::to_string(o.sessions_size); }},
    {"attach.kprobe-events", auto_bool_values,
     "yes: single kprobes (-K) as tracefs kprobe events, many probes per event (fast to detach "
     "where a perf event's detach waits for a grace period); no: one perf event per probe "
     "(faster to attach); auto: kprobe events where detaching perf events waits (Linux 6.1+).",
     [](Options& o, std::string_view v) {
       o.kprobe_events = v == "auto" ? std::nullopt : std::optional<bool>(parse_bool(v));
     },
     [](const Options& o) { return o.kprobe_events ? show_bool(*o.kprobe_events) : "auto"; },
     kAutoBoolWords},
    {"attach.expedite-rcu", bool_values,
     "Turn on /sys/kernel/rcu_expedited (system-wide: an IPI to every CPU per grace period) "
     "while attaching and detaching single kprobes or fentry, which wait for many grace periods. "
     "How it is restored: FILES AND SYSTEM CHANGES in retsnoop(8).",
     [](Options& o, std::string_view v) { o.expedite_rcu = parse_bool(v); },
     [](const Options& o) { return show_bool(o.expedite_rcu); }, kBoolWords},
    {"stacks.symb-mode", symbolize_level_choices,
     "Stack symbolization: kallsyms only, plus file:line, plus inlined frames (like -sn, -s, -ss).",
     [](Options& o, std::string_view v) { o.symbolize = parse_symbolize_level(v); },
     [](const Options& o) { return show_symbolize(o.symbolize); }, kSymbolizeWords},
    {"stacks.unfiltered", bool_values,
     "Keep the BPF trampoline and bpf_prog_* frames stacks normally drop, and every LBR record "
     "(none trimmed as irrelevant).",
     [](Options& o, std::string_view v) { o.stacks_unfiltered = parse_bool(v); },
     [](const Options& o) { return show_bool(o.stacks_unfiltered); }, kBoolWords},
    {"stacks.emit-addrs", bool_values, "Print raw addresses next to symbolized stack frames.",
     [](Options& o, std::string_view v) { o.stacks_emit_addrs = parse_bool(v); },
     [](const Options& o) { return show_bool(o.stacks_emit_addrs); }, kBoolWords},
    {"stacks.dec-offs", bool_values, "Print function offsets in decimal instead of hex.",
     [](Options& o, std::string_view v) { o.stacks_dec_offs = parse_bool(v); },
     [](const Options& o) { return show_bool(o.stacks_dec_offs); }, kBoolWords},
    {"stacks.repeats", repeats_values,
     "count: a failing session with the same call chain, results and kernel stack as one printed "
     "in the same half second is counted in BPF instead of sent. The printed one is followed "
     "within a second by '... and N more identical sessions (fingerprint F, TID/PID ..., first "
     "T, last T)', F being its stack fingerprint as --json and --summary give it (the summary "
     "counts the repeats too). At exit, the account on standard error says how many sessions "
     "were printed and how many counted.",
     [](Options& o, std::string_view v) { o.count_repeats = parse_repeats(v); },
     [](const Options& o) { return std::string(o.count_repeats ? "count" : "print"); },
     kRepeatsWords},
    {"lines.max-count", line_count_values,
     "With --line-trace: how many of a session's latest line hits are kept and printed; the "
     "older ones are counted in a '[...] N earlier line hits not kept' row.",
     [](Options& o, std::string_view v) { o.line_max_count = parse_positive(v, RS_MAX_LINES); },
     [](const Options& o) { return std::to_string(o.line_max_count); }},
    {"callees.max-functions", callee_count_values,
     "With --callees: how many functions callee discovery may add; the rest are left out with a "
     "warning.",
     [](Options& o, std::string_view v) { o.callees_max = parse_positive(v, kMaxCallees); },
     [](const Options& o) { return std::to_string(o.callees_max); }},
    {"callees.max-sites", site_count_values,
     "With --callees: how many indirect call sites (calls through a function pointer) of the "
     "walked functions get a probe that records their targets at run time; the rest are left "
     "out with a warning.",
     [](Options& o, std::string_view v) {
       o.callees_max_sites = parse_positive(v, RS_INDIRECT_MAX_SITES);
     },
     [](const Options& o) { return std::to_string(o.callees_max_sites); }},
    {"zoom.depth", zoom_depth_values,
     "With --zoom: how many levels of callees below the deepest failing function each round "
     "adds.",
     [](Options& o, std::string_view v) { o.zoom_depth = parse_positive(v, kMaxCalleeDepth); },
     [](const Options& o) { return std::to_string(o.zoom_depth); }},
    {"messages.enabled", bool_values,
     "Record the messages the kernel emits on a session's thread while the session is open "
     "(fs_context errors, netlink extended acks, BPF verifier log lines) and print them in a "
     "KERNEL MESSAGES block after the stack ('messages' in --json).",
     [](Options& o, std::string_view v) { o.messages_enabled = parse_bool(v); },
     [](const Options& o) { return show_bool(o.messages_enabled); }, kBoolWords},
    {"messages.max-count", message_count_values,
     "Kernel messages kept per session; later ones are dropped and counted at exit.",
     [](Options& o, std::string_view v) { o.messages_max_count = parse_positive(v, kMaxMessages); },
     [](const Options& o) { return std::to_string(o.messages_max_count); }},
    {"messages.max-len", message_len_values,
     "Bytes of a kernel message's text printed; a longer one ends in '...'.",
     [](Options& o, std::string_view v) { o.messages_max_len = parse_positive(v, kMaxMessageLen); },
     [](const Options& o) { return std::to_string(o.messages_max_len); }},
    {"fmt.lbr-max-count", int_values, "Print at most this many of the most relevant LBR records.",
     [](Options& o, std::string_view v) { o.lbr_max_count = parse_positive(v, INT_MAX); },
     [](const Options& o) { return o.lbr_max_count ? std::to_string(o.lbr_max_count) : "all"; }},
    {"args.max-total-args-size", total_args_values,
     "-A: bytes of argument data captured per call, all arguments together; arguments past it "
     "are marked as not captured.",
     [](Options& o, std::string_view v) {
       o.arg_limits.max_total_args_size = parse_positive(v, RS_MAX_ARGS_DATA);
     },
     [](const Options& o) { return std::to_string(o.arg_limits.max_total_args_size); }},
    {"args.max-sized-arg-size", arg_size_values,
     "-A: bytes read at a pointer to a struct, union, array or integer; larger ones are "
     "marked as truncated.",
     [](Options& o, std::string_view v) {
       o.arg_limits.max_sized_arg_size = parse_positive(v, RS_MAX_ARG_DATA);
     },
     [](const Options& o) { return std::to_string(o.arg_limits.max_sized_arg_size); }},
    {"args.max-str-arg-size", arg_size_values,
     "-A: bytes of a string argument, the terminating NUL included; longer ones end in '...'.",
     [](Options& o, std::string_view v) {
       o.arg_limits.max_str_arg_size = parse_positive(v, RS_MAX_ARG_DATA);
     },
     [](const Options& o) { return std::to_string(o.arg_limits.max_str_arg_size); }},
    {"args.capture-raw-ptrs", bool_values,
     "-A: also print the pointer value next to the data it points to.",
     [](Options& o, std::string_view v) { o.arg_limits.capture_raw_ptrs = parse_bool(v); },
     [](const Options& o) { return show_bool(o.arg_limits.capture_raw_ptrs); }, kBoolWords},
    {"args.fmt-mode", arg_fmt_mode_choices,
     "-A: all arguments of a call on one line (compact), one line per argument (multiline), "
     "or one line per struct field too, nothing cut (verbose).",
     [](Options& o, std::string_view v) { o.arg_fmt_mode = parse_arg_fmt_mode(v); },
     [](const Options& o) { return std::string(arg_fmt_mode_name(o.arg_fmt_mode)); },
     kFmtModeWords},
    {"args.fmt-max-arg-width", arg_width_values,
     "-A: compact and multiline modes cut each argument's value at this many characters.",
     [](Options& o, std::string_view v) { o.arg_max_width = parse_arg_width(v); },
     [](const Options& o) { return std::to_string(o.arg_max_width); }},
    {"summary.interval", seconds_values,
     "With --summary, also report the summary so far every this many seconds (service mode), "
     "when a session arrives after the interval ran out; a summary that would repeat the last one "
     "unchanged is not printed.",
     [](Options& o, std::string_view v) { o.summary_interval_s = parse_seconds(v); },
     [](const Options& o) { return std::to_string(o.summary_interval_s); }},
    {"user.retval", user_retval_values,
     "How a user-space function's result is judged: dwarf (its return type in the binary's DWARF "
     "or debug file decides: a negative signed integer, a NULL pointer or a false bool fails; "
     "without DWARF, as errno), errno (a 64-bit value from -4095 to -1 fails), int (the low 32 "
     "bits are such a value) or ptr (NULL fails too).",
     [](Options& o, std::string_view v) { o.user_retval = parse_user_retval(v); },
     [](const Options& o) { return std::string(user_retval_name(o.user_retval)); },
     kUserRetvalWords},
};

const Setting& find_setting(std::string_view key) {
  for (const auto& s : kSettings) {
    if (key == s.key) return s;
  }
  throw UserError("Unrecognized setting '" + std::string(key) + "'", kConfigHint);
}

}  // namespace

void apply_setting(Options& opts, std::string_view key_value) {
  auto eq = key_value.find('=');
  if (eq == std::string_view::npos) {
    throw UserError("Invalid -C argument '" + std::string(key_value) + "': expected KEY=VALUE",
                    kConfigHint);
  }
  const Setting& setting = find_setting(key_value.substr(0, eq));
  std::string_view value = key_value.substr(eq + 1);
  try {
    setting.apply(opts, value);
  } catch (const InvalidValue& e) {
    throw invalid_value(setting.key, value, e, kConfigHint);
  }
}

std::string settings_help() {
  std::string text = "Settings for -C KEY=VALUE:\n";
  for (const SettingInfo& s : setting_infos()) {
    text.append("  ").append(s.key).append(" (default: ").append(s.default_value).append(")\n");
    text.append("      Values: ").append(s.values).append("\n");
    text.append("      ").append(s.doc).append("\n");
  }
  return text;
}

std::vector<SettingInfo> setting_infos() {
  const Options defaults;
  std::vector<SettingInfo> infos;
  for (const auto& s : kSettings)
    infos.push_back({s.key, s.words, s.show(defaults), s.values(), s.doc});
  return infos;
}

}  // namespace retsnoop
