#include "cli/parse_options.h"

#include <linux/perf_event.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "cli/lbr_flags.h"
#include "parse_helpers.h"

namespace retsnoop {
namespace {

using test::parse;
using test::parse_capturing;
using test::parse_error;
using Strings = std::vector<std::string>;
using Ints = std::vector<int>;

constexpr const char* kHelpHint = "try 'retsnoop --help' for more information";

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

void expect_error(std::vector<std::string> args, const std::string& message) {
  UserError e = parse_error(std::move(args));
  EXPECT_EQ(e.what(), message);
  EXPECT_EQ(e.hint(), kHelpHint);
}

std::string write_temp_file(const std::string& name, const std::string& content) {
  std::string path = std::string(RS_TEST_BINARY_DIR) + "/" + name;
  std::ofstream(path) << content;
  return path;
}

TEST(ParseOptions, DefaultsWithoutArguments) {
  Options o = parse({});
  EXPECT_TRUE(o.entry_globs.empty());  // presets may supply entries; discovery checks
  EXPECT_FALSE(o.trace);
  EXPECT_FALSE(o.lbr);
  EXPECT_EQ(o.lbr_flags, 0u);
  EXPECT_EQ(o.lbr_max_count, 0);
  EXPECT_EQ(o.attach_mode, AttachMode::Default);
  EXPECT_EQ(o.success_stacks, SuccessStacks::Default);
  EXPECT_EQ(o.symbolize, std::nullopt);
  EXPECT_EQ(o.verbosity, 0);
  EXPECT_EQ(o.longer_ms, 0u);
  EXPECT_EQ(o.ringbuf_size, 4u << 20);
  EXPECT_EQ(o.sessions_size, 4096u);
  EXPECT_FALSE(o.show_version);
  EXPECT_FALSE(o.json);
  EXPECT_FALSE(o.dry_run);
  EXPECT_FALSE(o.help_shown);
}

TEST(ParseOptions, GlobsAreRepeatableAndKeptAsTyped) {
  Options o = parse({"-e", "*sys_bpf", "--entry", "foo [kvm]", "--entry=:kernel/bpf/*.c", "-e@list",
                     "-a", "bar?", "--allow=baz", "-d", "noisy*", "--deny", "x"});
  EXPECT_EQ(o.entry_globs, (Strings{"*sys_bpf", "foo [kvm]", ":kernel/bpf/*.c", "@list"}));
  EXPECT_EQ(o.allow_globs, (Strings{"bar?", "baz"}));
  EXPECT_EQ(o.deny_globs, (Strings{"noisy*", "x"}));
}

TEST(ParseOptions, Presets) {
  EXPECT_EQ(parse({"-c", "bpf", "--case=perf"}).presets, (Strings{"bpf", "perf"}));
  expect_error({"-c", "kvm"}, "Invalid value 'kvm' for -c/--case: expected one of bpf, perf");
}

TEST(ParseOptions, ModeFlags) {
  Options o = parse({"-T", "-I", "--dry-run", "--json"});
  EXPECT_TRUE(o.trace);
  EXPECT_TRUE(o.interim_stacks);
  EXPECT_TRUE(o.dry_run);
  EXPECT_TRUE(o.json);
  Options l = parse({"--trace", "--interim-stacks"});
  EXPECT_TRUE(l.trace && l.interim_stacks);
}

// The stack trace is always printed: -E is accepted so upstream command lines still run.
TEST(ParseOptions, FleetOutputs) {
  Options o =
      parse({"--summary", "-T", "--export-trace=/tmp/t.json", "--export-folded", "/tmp/f.txt"});
  EXPECT_TRUE(o.summary);
  EXPECT_EQ(o.export_trace, "/tmp/t.json");
  EXPECT_EQ(o.export_folded, "/tmp/f.txt");
  expect_error({"--export-trace=/tmp/t.json"},
               "--export-trace needs -T: only call traces have slices to export");
  expect_error({"--export-folded="}, "Invalid value '' for --export-folded: expected a path");
}

TEST(ParseOptions, CallStackIsAcceptedAndIgnored) {
  Options o = parse({"-T", "-E", "--call-stack"});
  EXPECT_TRUE(o.trace);
  EXPECT_FALSE(o.help_shown);
}

TEST(ParseOptions, LbrWithoutSpecUsesDefault) {
  for (const char* arg : {"-R", "-B", "--lbr"}) {
    Options o = parse({arg});
    EXPECT_TRUE(o.lbr) << arg;
    EXPECT_EQ(o.lbr_flags, 0u) << arg;
  }
}

TEST(ParseOptions, LbrSpecsAreOredAndAttached) {
  Options o = parse({"--lbr=any", "-Rcond", "-Bcall_stack", "--lbr=4096"});
  EXPECT_TRUE(o.lbr);
  EXPECT_EQ(o.lbr_flags, PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_COND |
                             PERF_SAMPLE_BRANCH_CALL_STACK | 4096u);
}

// A raw mask is read as C's strtol() with base 0 reads it: hex, octal or decimal.
TEST(ParseOptions, LbrRawMaskBases) {
  EXPECT_EQ(parse({"--lbr=0x20"}).lbr_flags, 0x20u);
  EXPECT_EQ(parse({"--lbr=0X20"}).lbr_flags, 0x20u);
  EXPECT_EQ(parse({"--lbr=040"}).lbr_flags, 040u);
  EXPECT_EQ(parse({"--lbr=32"}).lbr_flags, 32u);
  // 0 adds no branch type: the default stays.
  Options o = parse({"-B0"});
  EXPECT_TRUE(o.lbr);
  EXPECT_EQ(o.lbr_flags, 0u);
}

TEST(ParseOptions, LbrSpecIsOnlyTakenAttached) {
  expect_error({"--lbr", "any"}, "unexpected argument 'any'");
}

TEST(ParseOptions, LbrUnknownSpecListsValidNames) {
  const std::string expected =
      "expected one of any, any_call, any_return, cond, call, ind_call, ind_jump, call_stack, "
      "abort_tx, in_tx, no_tx, or an integer mask (decimal, 0x hex or 0 octal)";
  expect_error({"--lbr=foo"}, "Invalid value 'foo' for -R/--lbr: " + expected);
  for (const char* bad : {"-1", "0x", "09", "0xg", "1 ", "ANY"})
    EXPECT_EQ(parse_error({std::string("-B") + bad}).what(),
              std::string("Invalid value '") + bad + "' for -B: " + expected);
}

TEST(ParseOptions, LbrMaxCount) {
  EXPECT_EQ(parse({"--lbr-max-count", "8"}).lbr_max_count, 8);
  EXPECT_EQ(parse({"--lbr-max-count=3"}).lbr_max_count, 3);
  for (const char* bad : {"0", "-1", "x", "2147483648"}) {
    expect_error({"--lbr-max-count", bad}, std::string("Invalid value '") + bad +
                                               "' for --lbr-max-count: expected an integer "
                                               "from 1 to 2147483647");
  }
}

TEST(ParseOptions, CaptureArgs) {
  EXPECT_FALSE(parse({}).capture_args);
  EXPECT_TRUE(parse({"-A"}).capture_args);
  EXPECT_TRUE(parse({"--capture-args"}).capture_args);
  Options o = parse({"-A", "-C", "args.fmt-mode=verbose", "-C", "args.max-str-arg-size=64"});
  EXPECT_EQ(o.arg_fmt_mode, ArgFmtMode::Verbose);
  EXPECT_EQ(o.arg_limits.max_str_arg_size, 64u);
}

TEST(ParseOptions, InjectedProbesKeepTheirSpecs) {
  Options o =
      parse({"-T", "-J", "kprobe:foo+0x10", "--inject-probe=tp:sched:*", "-J", "@probes.txt"});
  EXPECT_EQ(o.probes, (std::vector<std::string>{"kprobe:foo+0x10", "tp:sched:*", "@probes.txt"}));
  expect_error({"-J"}, "option requires an argument -- 'J'");
}

TEST(ParseOptions, BadProbeSpecFailsAtParseTime) {
  EXPECT_STREQ(parse_error({"-T", "-J", "uprobe:foo"}).what(),
               "Invalid probe 'uprobe:foo': unknown probe kind 'uprobe'; expected "
               "kprobe:FUNC[+OFFSET], kretprobe:FUNC, tp:CATEGORY:NAME or rawtp:NAME");
}

// Accepted as upstream retsnoop accepts it; run() says the hits show only with -T.
TEST(ParseOptions, ProbesWithoutTheCallTrace) {
  Options o = parse({"-J", "tp:sched:sched_switch"});
  EXPECT_EQ(o.probes, (std::vector<std::string>{"tp:sched:sched_switch"}));
  EXPECT_FALSE(o.trace);
  EXPECT_STREQ(parse_error({"-J", "uprobe:foo"}).what(),
               "Invalid probe 'uprobe:foo': unknown probe kind 'uprobe'; expected "
               "kprobe:FUNC[+OFFSET], kretprobe:FUNC, tp:CATEGORY:NAME or rawtp:NAME");
}

TEST(ParseOptions, AttachModes) {
  EXPECT_EQ(parse({"-M"}).attach_mode, AttachMode::MultiKprobe);
  EXPECT_EQ(parse({"-K"}).attach_mode, AttachMode::Kprobe);
  EXPECT_EQ(parse({"-F"}).attach_mode, AttachMode::Fentry);
  EXPECT_EQ(parse({"-F", "-F"}).attach_mode, AttachMode::Fentry);
  EXPECT_EQ(parse({"--kprobes-multi"}).attach_mode, AttachMode::MultiKprobe);
  EXPECT_EQ(parse({"--kprobes"}).attach_mode, AttachMode::Kprobe);
  EXPECT_EQ(parse({"--fentries"}).attach_mode, AttachMode::Fentry);
  expect_error({"--kprobes", "--fentries"}, "-M, -K and -F are mutually exclusive");
  expect_error({"-M", "-K"}, "-M, -K and -F are mutually exclusive");
  expect_error({"-KF"}, "-M, -K and -F are mutually exclusive");
}

TEST(ParseOptions, SuccessStacks) {
  EXPECT_EQ(parse({"-S"}).success_stacks, SuccessStacks::Yes);
  EXPECT_EQ(parse({"-Sy"}).success_stacks, SuccessStacks::Yes);
  EXPECT_EQ(parse({"-Sn"}).success_stacks, SuccessStacks::No);
  EXPECT_EQ(parse({"--success-stacks=n"}).success_stacks, SuccessStacks::No);
  EXPECT_EQ(parse({"-Sn", "-S"}).success_stacks, SuccessStacks::Yes);  // last one wins
  expect_error({"-Sx"},
               "Invalid value 'x' for -S/--success-stacks: expected y/n, yes/no, "
               "true/false, on/off or 1/0 (any case)");
}

TEST(ParseOptions, ErrorFilters) {
  Options o = parse({"-x", "EINVAL", "-x", "-ENOENT", "--allow-errors=NULL", "-X", "EAGAIN",
                     "--deny-errors", "EWOULDBLOCK", "-XERESTARTSYS"});
  EXPECT_EQ(o.allow_errors, (Ints{22, 2, 0}));
  EXPECT_EQ(o.deny_errors, (Ints{11, 11, 512}));
}

TEST(ParseOptions, AnyResetsErrorList) {
  EXPECT_EQ(parse({"-x", "EINVAL", "-x", "any", "-x", "EPERM"}).allow_errors, (Ints{1}));
  EXPECT_TRUE(parse({"-X", "EINVAL", "-X", "any"}).deny_errors.empty());
  EXPECT_TRUE(parse({"-x", "EINVAL", "-x", "ANY"}).allow_errors.empty());
  EXPECT_TRUE(parse({"-X", "EINVAL", "-X", "Any"}).deny_errors.empty());
}

TEST(ParseOptions, UnknownErrorName) {
  expect_error({"-x", "EFOO"}, "Unrecognized error 'EFOO'");
  expect_error({"-X", "einval"}, "Unrecognized error 'einval'");
}

TEST(ParseOptions, AllowErrorsConflictsWithSuccessStacks) {
  expect_error({"-x", "EINVAL", "-S"}, "-x and -S are mutually exclusive");
  expect_error({"-S", "-x", "EINVAL"}, "-x and -S are mutually exclusive");
  EXPECT_EQ(parse({"-Sn", "-x", "EINVAL"}).allow_errors, (Ints{22}));
  // Reset with "any": no error list is left to conflict with.
  EXPECT_EQ(parse({"-S", "-x", "EINVAL", "-x", "any"}).success_stacks, SuccessStacks::Yes);
}

// Without a command --zoom zooms live; a dry run, which traces nothing, still refuses it.
TEST(ParseOptions, ZoomWithoutACommandIsLiveMode) {
  Options o = parse({"--zoom=3", "-x", "EINVAL"});
  EXPECT_EQ(o.zoom_rounds, 3u);
  EXPECT_TRUE(o.command.empty());
  expect_error({"--zoom", "--dry-run"},
               "--zoom traces round after round: it cannot go with --dry-run");
}

TEST(ParseOptions, RetvalFilters) {
  Options o = parse({"--allow-retval", "EINVAL", "--allow-retval=-E2BIG", "--allow-retval", "NULL",
                     "--allow-retval", "0..10", "--deny-retval", "-5", "--deny-retval", "0x10",
                     "--deny-retval=-ENOMEM..-1"});
  using Ranges = std::vector<RetvalRange>;
  EXPECT_EQ(o.allow_retvals, (Ranges{{-22, -22}, {-7, -7}, {0, 0}, {0, 10}}));
  EXPECT_EQ(o.deny_retvals, (Ranges{{-5, -5}, {16, 16}, {-12, -1}}));
}

// A return-value filter is about results, successful ones included: it implies -S, as in
// upstream retsnoop, which an explicit -Sn overrides, and which -x does not conflict with.
TEST(ParseOptions, RetvalFiltersImplySuccessStacks) {
  EXPECT_EQ(parse({"--allow-retval", "1..1000"}).success_stacks, SuccessStacks::Yes);
  EXPECT_EQ(parse({"--deny-retval", "0"}).success_stacks, SuccessStacks::Yes);
  EXPECT_EQ(parse({"--allow-retval", "1..1000", "-Sn"}).success_stacks, SuccessStacks::No);
  EXPECT_EQ(parse({"-S", "--allow-retval", "1"}).success_stacks, SuccessStacks::Yes);
  Options o = parse({"-x", "ENOMEM", "--allow-retval", "-ENOMEM"});
  EXPECT_EQ(o.success_stacks, SuccessStacks::Yes);
  EXPECT_EQ(o.allow_errors, (Ints{12}));
  EXPECT_EQ(parse({}).success_stacks, SuccessStacks::Default);
}

TEST(ParseOptions, RetvalFilterErrors) {
  const char* expected =
      "expected an errno name (EINVAL or -EINVAL), NULL, an integer or a range LO..HI";
  for (const char* bad : {"", "EFOO", "einval", "1.5", "..", "1..", "..1", "0x", "-", "1 "}) {
    expect_error({"--allow-retval", bad},
                 std::string("Invalid value '") + bad + "' for --allow-retval: " + expected);
  }
  expect_error({"--deny-retval", "10..0"},
               "Invalid value '10..0' for --deny-retval: expected LO..HI with LO not above HI");
  expect_error({"--deny-retval", "-ENOMEM..-EINVAL"},
               "Invalid value '-ENOMEM..-EINVAL' for --deny-retval: expected LO..HI with LO not "
               "above HI");
}

TEST(ParseOptions, RetvalExtremes) {
  using Ranges = std::vector<RetvalRange>;
  EXPECT_EQ(parse({"--allow-retval", "-9223372036854775808..9223372036854775807"}).allow_retvals,
            (Ranges{{INT64_MIN, INT64_MAX}}));
  // Addresses keep their 64 bits: ERR_PTR(-EINVAL) written in hex is -22.
  EXPECT_EQ(parse({"--allow-retval", "0xffffffffffffffea"}).allow_retvals, (Ranges{{-22, -22}}));
  expect_error({"--allow-retval", "-9223372036854775809"},
               "Invalid value '-9223372036854775809' for --allow-retval: expected an errno name "
               "(EINVAL or -EINVAL), NULL, an integer or a range LO..HI");
}

TEST(ParseOptions, Pids) {
  Options o = parse({"-p", "1", "--pid=42", "-P", "7", "--no-pid", "2147483647"});
  EXPECT_EQ(o.allow_pids, (Ints{1, 42}));
  EXPECT_EQ(o.deny_pids, (Ints{7, 2147483647}));
  for (const char* bad : {"-5", "abc", "12x", "2147483648", "", "00", "-0"}) {
    expect_error({"-p", bad},
                 std::string("Invalid value '") + bad +
                     "' for -p/--pid: expected an integer from 0 (the idle tasks) to 2147483647");
  }
}

// PID 0 is the idle tasks, as in upstream retsnoop: their sessions are interrupts taken idle.
TEST(ParseOptions, PidZeroIsTheIdleTasks) {
  EXPECT_EQ(parse({"-p", "0"}).allow_pids, (Ints{0}));
  EXPECT_EQ(parse({"-P", "0"}).deny_pids, (Ints{0}));
}

TEST(ParseOptions, Comms) {
  Options o = parse({"-n", "bash", "--comm=123456789012345", "-N", "sshd", "--no-comm", "cron"});
  EXPECT_EQ(o.allow_comms, (Strings{"bash", "123456789012345"}));
  EXPECT_EQ(o.deny_comms, (Strings{"sshd", "cron"}));
  EXPECT_TRUE(o.truncated_comms.empty());
  expect_error({"-N", ""}, "Invalid value '' for -N/--no-comm: expected a non-empty name");
  expect_error({"-n", ""}, "Invalid value '' for -n/--comm: expected a non-empty name");
}

TEST(ParseOptions, ArgumentFiltersAndCgroupsAreRepeatableAndKeptAsTyped) {
  Options o = parse({"--arg-filter", "attr->map_type == 2", "--arg-filter=fd > 0", "--cgroup",
                     "/sys/fs/cgroup/a", "--no-cgroup", "/sys/fs/cgroup/a/b"});
  EXPECT_EQ(o.arg_filters, (Strings{"attr->map_type == 2", "fd > 0"}));
  EXPECT_EQ(o.allow_cgroups, (Strings{"/sys/fs/cgroup/a"}));
  EXPECT_EQ(o.deny_cgroups, (Strings{"/sys/fs/cgroup/a/b"}));
  expect_error({"--arg-filter", ""}, "Invalid value '' for --arg-filter: expected an expression");
  expect_error({"--cgroup", ""}, "Invalid value '' for --cgroup: expected a cgroup directory");
}

// The kernel keeps the first 15 characters of a task's name: a longer one is compared by those.
TEST(ParseOptions, LongCommsCompareTheirFirst15Characters) {
  Options o = parse({"-n", "1234567890123456", "-N", "systemd-journald"});
  EXPECT_EQ(o.allow_comms, (Strings{"123456789012345"}));
  EXPECT_EQ(o.deny_comms, (Strings{"systemd-journal"}));
  EXPECT_EQ(o.truncated_comms, (Strings{"123456789012345", "systemd-journal"}));
}

TEST(ParseOptions, CommsFromFile) {
  std::string path = write_temp_file("comms.txt", "simfail  bash\n\tsshd\n");
  Options o = parse({"-n", "x", "-n", "@" + path, "-N@" + path});
  EXPECT_EQ(o.allow_comms, (Strings{"x", "simfail", "bash", "sshd"}));
  EXPECT_EQ(o.deny_comms, (Strings{"simfail", "bash", "sshd"}));
}

TEST(ParseOptions, CommsFileErrors) {
  std::string missing = std::string(RS_TEST_BINARY_DIR) + "/no-such-comms.txt";
  expect_error({"-n", "@" + missing},
               "Failed to read '" + missing + "': No such file or directory");

  std::string empty = write_temp_file("comms-empty.txt", " \n");
  expect_error({"-n", "@" + empty},
               "Invalid value '@" + empty + "' for -n/--comm: the file lists no names");

  std::string long_name = write_temp_file("comms-long.txt", "ok averyveryverylongname\n");
  Options o = parse({"-N", "@" + long_name});
  EXPECT_EQ(o.deny_comms, (Strings{"ok", "averyveryverylo"}));
  EXPECT_EQ(o.truncated_comms, (Strings{"averyveryverylo"}));
}

TEST(ParseOptions, DebugFeatures) {
  Options none = parse({});
  EXPECT_FALSE(none.debug_multi_kprobe || none.debug_full_lbr || none.debug_bpf);
  Options o = parse({"--debug", "multi-kprobe", "--debug=full-lbr", "--debug", "bpf"});
  EXPECT_TRUE(o.debug_multi_kprobe);
  EXPECT_TRUE(o.debug_full_lbr);
  EXPECT_TRUE(o.debug_bpf);
  EXPECT_TRUE(parse({"--debug=bpf"}).debug_bpf);
  EXPECT_FALSE(parse({"--debug=bpf"}).debug_full_lbr);
  expect_error({"--debug", "verifier"},
               "Invalid value 'verifier' for --debug: expected one of multi-kprobe, full-lbr, bpf");
}

TEST(ParseOptions, Longer) {
  EXPECT_EQ(parse({"-L", "100"}).longer_ms, 100u);
  EXPECT_EQ(parse({"--longer=5"}).longer_ms, 5u);
  expect_error({"-L", "0"}, "Invalid value '0' for -L/--longer: expected a positive integer");
  expect_error({"-L", "1.5"}, "Invalid value '1.5' for -L/--longer: expected a positive integer");
  expect_error({"-L", "-5"}, "Invalid value '-5' for -L/--longer: expected a positive integer");
}

TEST(ParseOptions, KernelPath) {
  EXPECT_EQ(parse({"-k", "/boot/vmlinux-6.1"}).kernel_path, "/boot/vmlinux-6.1");
  EXPECT_EQ(parse({"--kernel=./vmlinux"}).kernel_path, "./vmlinux");
  expect_error({"-k", ""}, "Invalid value '' for -k/--kernel: expected a path");
}

TEST(ParseOptions, SymbolizeLevels) {
  EXPECT_EQ(parse({"-s"}).symbolize, SymbLevel::Lines);
  EXPECT_EQ(parse({"-ss"}).symbolize, SymbLevel::Inlines);
  EXPECT_EQ(parse({"-sn"}).symbolize, SymbLevel::None);
  EXPECT_EQ(parse({"-s", "-s"}).symbolize, SymbLevel::Lines);
  EXPECT_EQ(parse({"--symbolize"}).symbolize, SymbLevel::Lines);
  EXPECT_EQ(parse({"--symbolize=inlines"}).symbolize, SymbLevel::Inlines);
  EXPECT_EQ(parse({"--symbolize=none"}).symbolize, SymbLevel::None);
  expect_error({"-sx"},
               "Invalid value 'x' for -s/--symbolize: expected -s, -ss, -sn or "
               "--symbolize=none|lines|inlines");
  expect_error({"-sss"},
               "Invalid value 'ss' for -s/--symbolize: expected -s, -ss, -sn or "
               "--symbolize=none|lines|inlines");
}

TEST(ParseOptions, VerbosityAndVersion) {
  EXPECT_EQ(parse({"-v"}).verbosity, 1);
  EXPECT_EQ(parse({"-vvv"}).verbosity, 3);
  EXPECT_EQ(parse({"-v", "--verbose", "-vv"}).verbosity, 4);
  Options o = parse({"-Vv"});
  EXPECT_TRUE(o.show_version);
  EXPECT_EQ(o.verbosity, 1);
  EXPECT_TRUE(parse({"--version"}).show_version);
}

TEST(ParseOptions, BundledShortOptions) {
  Options o = parse({"-TEIvs", "-vefoo", "-vcbpf"});
  EXPECT_TRUE(o.trace && o.interim_stacks);
  EXPECT_EQ(o.symbolize, SymbLevel::Lines);
  EXPECT_EQ(o.verbosity, 3);
  EXPECT_EQ(o.entry_globs, (Strings{"foo"}));  // a value-taking option eats the rest of the bundle
  EXPECT_EQ(o.presets, (Strings{"bpf"}));
}

TEST(ParseOptions, BundleEndingInPresetValue) {
  expect_error({"-cfoo"}, "Invalid value 'foo' for -c/--case: expected one of bpf, perf");
}

TEST(ParseOptions, ConfigSettings) {
  Options o = parse(
      {"-C", "bpf.ringbuf-size=16M", "--config=fmt.lbr-max-count=4", "-Cstacks.emit-addrs=y"});
  EXPECT_EQ(o.ringbuf_size, 16u << 20);
  EXPECT_EQ(o.lbr_max_count, 4);
  EXPECT_TRUE(o.stacks_emit_addrs);
  UserError e = parse_error({"-C", "foo=1"});
  EXPECT_STREQ(e.what(), "Unrecognized setting 'foo'");
  EXPECT_EQ(e.hint(), "try 'retsnoop --config-help' for the list of settings");
}

TEST(ParseOptions, GetoptErrorsBecomeOneLine) {
  expect_error({"--foo"}, "unrecognized option '--foo'");
  expect_error({"--foo=1"}, "unrecognized option '--foo=1'");
  expect_error({"-q"}, "invalid option -- 'q'");
  expect_error({"-vq"}, "invalid option -- 'q'");
  expect_error({"-e"}, "option requires an argument -- 'e'");
  expect_error({"--entry"}, "option '--entry' requires an argument");
  expect_error({"--trace=1"}, "option '--trace' doesn't allow an argument");
  EXPECT_TRUE(contains(parse_error({"--no"}).what(), "option '--no' is ambiguous"));
}

TEST(ParseOptions, PositionalArgumentsAreRejected) {
  expect_error({"-T", "foo"}, "unexpected argument 'foo'");
  expect_error({"foo", "--", "cmd"}, "unexpected argument 'foo'");  // only "--" starts a command
}

TEST(ParseOptions, StderrIsRestored) {
  std::FILE* before = stderr;
  parse_error({"--foo"});
  parse({"-v"});
  EXPECT_EQ(stderr, before);
}

TEST(ParseOptions, LongOptionPrefixes) {
  EXPECT_TRUE(parse({"--dry"}).dry_run);
  EXPECT_EQ(parse({"--verb", "--verbose"}).verbosity, 2);
}

TEST(ParseOptionsHelp, HelpShowsEveryCategoryAndOption) {
  for (const char* arg : {"--help", "-h"}) {
    auto outcome = parse_capturing({arg});
    EXPECT_TRUE(outcome.opts.help_shown);
    const std::string& help = outcome.help;
    EXPECT_TRUE(contains(help, "Usage: retsnoop"));
    for (const char* header : {"Choosing functions:", "Modes (the stack trace is always shown):",
                               "Filters:", "Symbolization and miscellaneous:"}) {
      EXPECT_TRUE(contains(help, header)) << header;
    }
    for (const char* opt : {"--entry",          "--allow",
                            "--deny",           "--case",
                            "--trace",          "--call-stack",
                            "--lbr[=SPEC]",     "-B",
                            "--lbr-max-count",  "--capture-args",
                            "--inject-probe",   "--interim-stacks",
                            "--dry-run",        "-M",
                            "--kprobes-multi",  "-K",
                            "--kprobes",        "-F",
                            "--fentries",       "--debug",
                            "--success-stacks", "--allow-errors",
                            "--deny-errors",    "--pid",
                            "--no-pid",         "--comm",
                            "--no-comm",        "--longer",
                            "--kernel",         "--symbolize",
                            "--verbose",        "--version",
                            "--config",         "--config-help",
                            "--json",           "--help",
                            "--usage"}) {
      EXPECT_TRUE(contains(help, opt)) << opt;
    }
  }
}

TEST(ParseOptionsHelp, HelpListsTheValuesTheParserAccepts) {
  std::string help = parse_capturing({"--help"}).help;
  ASSERT_FALSE(lbr_spec_names().empty());
  for (std::string_view name : lbr_spec_names()) {
    EXPECT_TRUE(contains(help, std::string(name))) << name;
    uint64_t bits = parse({"--lbr=" + std::string(name)}).lbr_flags;
    EXPECT_NE(bits, 0u) << name;
    EXPECT_EQ(bits, parse_lbr_flags(name)) << name;
  }
  EXPECT_TRUE(contains(help, "bpf or perf"));
  for (const char* feature : {"multi-kprobe", "full-lbr", "bpf"}) {
    EXPECT_TRUE(contains(help, feature)) << feature;
    EXPECT_NO_THROW(parse({"--debug", feature})) << feature;
  }
}

TEST(ParseOptionsHelp, HelpStopsParsing) {
  auto outcome = parse_capturing({"-T", "--help", "--no-such-option", "positional"});
  EXPECT_TRUE(outcome.opts.help_shown);
  EXPECT_FALSE(outcome.help.empty());
  // Errors before --help are still reported, like any GNU tool processing options in order.
  expect_error({"--no-such-option", "--help"}, "unrecognized option '--no-such-option'");
}

TEST(ParseOptionsHelp, Usage) {
  auto outcome = parse_capturing({"--usage"});
  EXPECT_TRUE(outcome.opts.help_shown);
  EXPECT_TRUE(contains(outcome.help, "Usage: retsnoop"));
  EXPECT_TRUE(contains(outcome.help, "[--entry=GLOB]"));
  EXPECT_FALSE(contains(outcome.help, "Filters:"));
}

TEST(ParseOptionsHelp, ConfigHelp) {
  auto outcome = parse_capturing({"--config-help"});
  EXPECT_TRUE(outcome.opts.help_shown);
  EXPECT_TRUE(contains(outcome.help, "bpf.ringbuf-size"));
  EXPECT_TRUE(contains(outcome.help, "(default: 4M)"));
}

TEST(ParseOptionsHelp, NoHelpOutputWithoutHelpOptions) {
  auto outcome = parse_capturing({"-v", "-e", "foo"});
  EXPECT_FALSE(outcome.opts.help_shown);
  EXPECT_TRUE(outcome.help.empty());
}

}  // namespace
}  // namespace retsnoop
