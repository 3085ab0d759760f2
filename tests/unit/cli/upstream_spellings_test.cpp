// Command lines written for upstream retsnoop (v0.11: its option table and -C settings, with the
// return-value filters that came after) parse here with the same meaning. One row per spelling:
// the arguments as a user types them and what they must set.
#include <linux/perf_event.h>

#include <functional>
#include <string>
#include <vector>

#include "parse_helpers.h"

namespace retsnoop {
namespace {

using test::parse;
using Strings = std::vector<std::string>;
using Ints = std::vector<int>;

struct Spelling {
  std::vector<std::string> args;
  std::function<bool(const Options&)> means;
};

std::string joined(const std::vector<std::string>& args) {
  std::string text;
  for (const auto& a : args) text.append(text.empty() ? "" : " ").append(a);
  return text;
}

void expect_meanings(const std::vector<Spelling>& rows) {
  for (const Spelling& row : rows) {
    SCOPED_TRACE(joined(row.args));
    Options o;
    ASSERT_NO_THROW(o = parse(row.args));
    EXPECT_TRUE(row.means(o));
  }
}

TEST(UpstreamSpellings, Targeting) {
  expect_meanings({
      {{"-c", "bpf"}, [](const Options& o) { return o.presets == Strings{"bpf"}; }},
      {{"--case", "perf"}, [](const Options& o) { return o.presets == Strings{"perf"}; }},
      {{"--case=bpf", "-cperf"},
       [](const Options& o) {
         return o.presets == Strings{"bpf", "perf"};
       }},
      {{"-e", "*sys_bpf"}, [](const Options& o) { return o.entry_globs == Strings{"*sys_bpf"}; }},
      {{"--entry", "@globs.txt"},
       [](const Options& o) { return o.entry_globs == Strings{"@globs.txt"}; }},
      {{"-a", ":kernel/bpf/*.c"},
       [](const Options& o) { return o.allow_globs == Strings{":kernel/bpf/*.c"}; }},
      {{"--allow=array_map_*"},
       [](const Options& o) { return o.allow_globs == Strings{"array_map_*"}; }},
      {{"-d", "*migrate*"}, [](const Options& o) { return o.deny_globs == Strings{"*migrate*"}; }},
      {{"--deny", "bpf_lsm_*"},
       [](const Options& o) { return o.deny_globs == Strings{"bpf_lsm_*"}; }},
  });
}

TEST(UpstreamSpellings, RunModes) {
  expect_meanings({
      {{"-T"}, [](const Options& o) { return o.trace; }},
      {{"--trace"}, [](const Options& o) { return o.trace; }},
      {{"-A"}, [](const Options& o) { return o.capture_args; }},
      {{"--capture-args"}, [](const Options& o) { return o.capture_args; }},
      {{"-E", "-T"}, [](const Options& o) { return o.trace; }},
      {{"--call-stack"}, [](const Options& o) { return !o.trace; }},
      {{"-I"}, [](const Options& o) { return o.interim_stacks; }},
      {{"--interim-stacks"}, [](const Options& o) { return o.interim_stacks; }},
      {{"--dry-run"}, [](const Options& o) { return o.dry_run; }},
      {{"-M"}, [](const Options& o) { return o.attach_mode == AttachMode::MultiKprobe; }},
      {{"--kprobes-multi"},
       [](const Options& o) { return o.attach_mode == AttachMode::MultiKprobe; }},
      {{"-K"}, [](const Options& o) { return o.attach_mode == AttachMode::Kprobe; }},
      {{"--kprobes"}, [](const Options& o) { return o.attach_mode == AttachMode::Kprobe; }},
      {{"-F"}, [](const Options& o) { return o.attach_mode == AttachMode::Fentry; }},
      {{"--fentries"}, [](const Options& o) { return o.attach_mode == AttachMode::Fentry; }},
      {{"-J", "kprobe:array_map_alloc_check", "-T"},
       [](const Options& o) { return o.probes == Strings{"kprobe:array_map_alloc_check"}; }},
      {{"--inject-probe", "tp:sched:sched_switch"},
       [](const Options& o) { return o.probes == Strings{"tp:sched:sched_switch"}; }},
      {{"-J", "rawtp:sched_switch", "-J", "kretprobe:map_create"},
       [](const Options& o) {
         return o.probes == Strings{"rawtp:sched_switch", "kretprobe:map_create"};
       }},
  });
}

TEST(UpstreamSpellings, Lbr) {
  expect_meanings({
      {{"-B"}, [](const Options& o) { return o.lbr && o.lbr_flags == 0; }},
      {{"--lbr"}, [](const Options& o) { return o.lbr && o.lbr_flags == 0; }},
      {{"--lbr=any"}, [](const Options& o) { return o.lbr_flags == PERF_SAMPLE_BRANCH_ANY; }},
      {{"-Bany_return"},
       [](const Options& o) { return o.lbr_flags == PERF_SAMPLE_BRANCH_ANY_RETURN; }},
      {{"--lbr=any_call", "--lbr=cond", "--lbr=call", "--lbr=ind_call", "--lbr=ind_jump",
        "--lbr=call_stack", "--lbr=abort_tx", "--lbr=in_tx", "--lbr=no_tx"},
       [](const Options& o) {
         return o.lbr_flags ==
                (PERF_SAMPLE_BRANCH_ANY_CALL | PERF_SAMPLE_BRANCH_COND | PERF_SAMPLE_BRANCH_CALL |
                 PERF_SAMPLE_BRANCH_IND_CALL | PERF_SAMPLE_BRANCH_IND_JUMP |
                 PERF_SAMPLE_BRANCH_CALL_STACK | PERF_SAMPLE_BRANCH_ABORT_TX |
                 PERF_SAMPLE_BRANCH_IN_TX | PERF_SAMPLE_BRANCH_NO_TX);
       }},
      {{"--lbr=0x20"}, [](const Options& o) { return o.lbr_flags == 0x20; }},
      {{"--lbr=32"}, [](const Options& o) { return o.lbr_flags == 32; }},
      {{"--lbr=040"}, [](const Options& o) { return o.lbr_flags == 32; }},
      {{"-B0x40", "-Bany"},
       [](const Options& o) { return o.lbr_flags == (0x40 | PERF_SAMPLE_BRANCH_ANY); }},
  });
}

TEST(UpstreamSpellings, Filters) {
  expect_meanings({
      {{"-p", "123"}, [](const Options& o) { return o.allow_pids == Ints{123}; }},
      {{"--pid=0"}, [](const Options& o) { return o.allow_pids == Ints{0}; }},
      {{"-P", "1"}, [](const Options& o) { return o.deny_pids == Ints{1}; }},
      {{"--no-pid", "42"}, [](const Options& o) { return o.deny_pids == Ints{42}; }},
      {{"-n", "bash"}, [](const Options& o) { return o.allow_comms == Strings{"bash"}; }},
      {{"--comm", "systemd-journald"},
       [](const Options& o) { return o.allow_comms == Strings{"systemd-journal"}; }},
      {{"-N", "sshd"}, [](const Options& o) { return o.deny_comms == Strings{"sshd"}; }},
      {{"--no-comm=cron"}, [](const Options& o) { return o.deny_comms == Strings{"cron"}; }},
      {{"-L", "100"}, [](const Options& o) { return o.longer_ms == 100; }},
      {{"--longer", "5"}, [](const Options& o) { return o.longer_ms == 5; }},
      {{"-S"}, [](const Options& o) { return o.success_stacks == SuccessStacks::Yes; }},
      {{"--success-stacks"},
       [](const Options& o) { return o.success_stacks == SuccessStacks::Yes; }},
      {{"-x", "EINVAL", "-x", "-ENOENT"},
       [](const Options& o) {
         return o.allow_errors == Ints{22, 2};
       }},
      {{"--allow-errors", "ENOMEM"}, [](const Options& o) { return o.allow_errors == Ints{12}; }},
      {{"-x", "EINVAL", "-x", "any"}, [](const Options& o) { return o.allow_errors.empty(); }},
      {{"-x", "EINVAL", "-x", "ANY"}, [](const Options& o) { return o.allow_errors.empty(); }},
      {{"-X", "EAGAIN"}, [](const Options& o) { return o.deny_errors == Ints{11}; }},
      {{"--deny-errors=-EPERM"}, [](const Options& o) { return o.deny_errors == Ints{1}; }},
      {{"--allow-retval", "1..1000"},
       [](const Options& o) {
         return o.allow_retvals == std::vector<RetvalRange>{{1, 1000}} &&
                o.success_stacks == SuccessStacks::Yes;
       }},
      {{"--deny-retval", "-EINVAL"},
       [](const Options& o) {
         return o.deny_retvals == std::vector<RetvalRange>{{-22, -22}} &&
                o.success_stacks == SuccessStacks::Yes;
       }},
  });
}

TEST(UpstreamSpellings, SymbolizationAndMisc) {
  expect_meanings({
      {{"-k", "/boot/vmlinux"}, [](const Options& o) { return o.kernel_path == "/boot/vmlinux"; }},
      {{"--kernel=./vmlinux"}, [](const Options& o) { return o.kernel_path == "./vmlinux"; }},
      {{"-s"}, [](const Options& o) { return o.symbolize == SymbLevel::Lines; }},
      {{"-ss"}, [](const Options& o) { return o.symbolize == SymbLevel::Inlines; }},
      {{"-sn"}, [](const Options& o) { return o.symbolize == SymbLevel::None; }},
      {{"--symbolize"}, [](const Options& o) { return o.symbolize == SymbLevel::Lines; }},
      {{"--symbolize=inlines"}, [](const Options& o) { return o.symbolize == SymbLevel::Inlines; }},
      {{"--symbolize=none"}, [](const Options& o) { return o.symbolize == SymbLevel::None; }},
      {{"--debug", "multi-kprobe"}, [](const Options& o) { return o.debug_multi_kprobe; }},
      {{"--debug=full-lbr"}, [](const Options& o) { return o.debug_full_lbr; }},
      {{"--debug", "bpf"}, [](const Options& o) { return o.debug_bpf; }},
      {{"-v"}, [](const Options& o) { return o.verbosity == 1; }},
      {{"-vv"}, [](const Options& o) { return o.verbosity == 2; }},
      {{"--verbose", "-vv"}, [](const Options& o) { return o.verbosity == 3; }},
      {{"-V"}, [](const Options& o) { return o.show_version; }},
      {{"--version"}, [](const Options& o) { return o.show_version; }},
      {{"-h"}, [](const Options& o) { return o.help_shown; }},
      {{"--help"}, [](const Options& o) { return o.help_shown; }},
      {{"--usage"}, [](const Options& o) { return o.help_shown; }},
      {{"--config-help"}, [](const Options& o) { return o.help_shown; }},
  });
}

TEST(UpstreamSpellings, Settings) {
  expect_meanings({
      {{"-C", "bpf.ringbuf-size=16777216"},
       [](const Options& o) { return o.ringbuf_size == 16u << 20; }},
      {{"--config", "bpf.sessions-size=1024"},
       [](const Options& o) { return o.sessions_size == 1024; }},
      {{"-C", "stacks.symb-mode=linenum"},
       [](const Options& o) { return o.symbolize == SymbLevel::Lines; }},
      {{"-C", "stacks.symb-mode=l"},
       [](const Options& o) { return o.symbolize == SymbLevel::Lines; }},
      {{"-C", "stacks.symb-mode=inlines"},
       [](const Options& o) { return o.symbolize == SymbLevel::Inlines; }},
      {{"-C", "stacks.symb-mode=i"},
       [](const Options& o) { return o.symbolize == SymbLevel::Inlines; }},
      {{"-C", "stacks.symb-mode=none"},
       [](const Options& o) { return o.symbolize == SymbLevel::None; }},
      {{"-C", "stacks.symb-mode=n"},
       [](const Options& o) { return o.symbolize == SymbLevel::None; }},
      {{"-C", "stacks.unfiltered=true"}, [](const Options& o) { return o.stacks_unfiltered; }},
      {{"-C", "stacks.unfiltered=y"}, [](const Options& o) { return o.stacks_unfiltered; }},
      {{"-C", "stacks.unfiltered=1"}, [](const Options& o) { return o.stacks_unfiltered; }},
      {{"-C", "stacks.unfiltered=1", "-C", "stacks.unfiltered=false"},
       [](const Options& o) { return !o.stacks_unfiltered; }},
      {{"-C", "stacks.emit-addrs=y"}, [](const Options& o) { return o.stacks_emit_addrs; }},
      {{"-C", "stacks.emit-addrs=y", "-C", "stacks.emit-addrs=n"},
       [](const Options& o) { return !o.stacks_emit_addrs; }},
      {{"-C", "stacks.dec-offs=TRUE"}, [](const Options& o) { return o.stacks_dec_offs; }},
      {{"-C", "stacks.dec-offs=1", "-C", "stacks.dec-offs=0"},
       [](const Options& o) { return !o.stacks_dec_offs; }},
      {{"-C", "args.max-total-args-size=1024"},
       [](const Options& o) { return o.arg_limits.max_total_args_size == 1024; }},
      {{"-C", "args.max-sized-arg-size=64"},
       [](const Options& o) { return o.arg_limits.max_sized_arg_size == 64; }},
      {{"-C", "args.max-str-arg-size=32"},
       [](const Options& o) { return o.arg_limits.max_str_arg_size == 32; }},
      {{"-C", "args.fmt-mode=compact"},
       [](const Options& o) { return o.arg_fmt_mode == ArgFmtMode::Compact; }},
      {{"-C", "args.fmt-mode=c"},
       [](const Options& o) { return o.arg_fmt_mode == ArgFmtMode::Compact; }},
      {{"-C", "args.fmt-mode=multiline"},
       [](const Options& o) { return o.arg_fmt_mode == ArgFmtMode::Multiline; }},
      {{"-C", "args.fmt-mode=m"},
       [](const Options& o) { return o.arg_fmt_mode == ArgFmtMode::Multiline; }},
      {{"-C", "args.fmt-mode=verbose"},
       [](const Options& o) { return o.arg_fmt_mode == ArgFmtMode::Verbose; }},
      {{"-C", "args.fmt-mode=v"},
       [](const Options& o) { return o.arg_fmt_mode == ArgFmtMode::Verbose; }},
      {{"-C", "args.fmt-max-arg-width=0"}, [](const Options& o) { return o.arg_max_width == 0; }},
      {{"-C", "args.fmt-max-arg-width=250"},
       [](const Options& o) { return o.arg_max_width == 250; }},
      {{"-C", "fmt.lbr-max-count=8"}, [](const Options& o) { return o.lbr_max_count == 8; }},
  });
}

// The command lines of upstream's README and help, whole.
TEST(UpstreamSpellings, WholeCommandLines) {
  expect_meanings({
      {{"-e", "*sys_bpf", "-a", ":kernel/bpf/*.c"},
       [](const Options& o) {
         return o.entry_globs == Strings{"*sys_bpf"} && o.allow_globs == Strings{":kernel/bpf/*.c"};
       }},
      {{"-e", "*sys_bpf", "-a", "array_map_alloc_check", "--lbr=any"},
       [](const Options& o) { return o.lbr && o.lbr_flags == PERF_SAMPLE_BRANCH_ANY; }},
      {{"-c", "bpf", "-S", "-T", "-n", "simfail"},
       [](const Options& o) {
         return o.presets == Strings{"bpf"} && o.trace && o.success_stacks == SuccessStacks::Yes &&
                o.allow_comms == Strings{"simfail"};
       }},
      {{"-v", "-B", "-T", "-A", "-e", "*sys_bpf", "-a", "*bpf*", "-d", "bpf_lsm_*"},
       [](const Options& o) {
         return o.verbosity == 1 && o.lbr && o.trace && o.capture_args &&
                o.deny_globs == Strings{"bpf_lsm_*"};
       }},
      {{"-Kv", "-e", "do_sys_openat2", "-x", "ENOENT", "-J", "tp:syscalls:sys_enter_openat"},
       [](const Options& o) {
         return o.attach_mode == AttachMode::Kprobe && o.allow_errors == Ints{2} &&
                o.probes.size() == 1;
       }},
  });
}

}  // namespace
}  // namespace retsnoop
