#include "cli/parse_options.h"

#include <argp.h>

#include <exception>
#include <string>
#include <vector>

#include "cli/command_split.h"
#include "cli/option_table.h"
#include "cli/stderr_capture.h"
#include "cli/value_parsers.h"
#include "util/error.h"

namespace retsnoop {
namespace {

constexpr const char* kHelpHint = "try 'retsnoop --help' for more information";

constexpr const char* kDoc =
    "Trace kernel functions and show the call stacks, call traces and branch records that lead "
    "to an error.\v"
    "Examples:\n"
    "  retsnoop -e '*sys_bpf' -a ':kernel/bpf/*.c'\n"
    "  retsnoop -e '*sys_bpf' -a 'array_map_alloc_check' --lbr=any\n"
    "  retsnoop -c bpf -S -T -n simfail\n"
    "  retsnoop -e '*sys_bpf' -a ':kernel/bpf/*.c' -U -- ./loader prog.o\n"
    "\n"
    "Command mode: everything after '--' is a command that retsnoop starts once attached; only\n"
    "it and its descendants are traced, and retsnoop exits with its exit status.";

// Returned to argp to stop at once: any error code other than EBADKEY makes argp stop silently.
constexpr error_t kStop = ECANCELED;

struct ParseRun {
  CliState cli;
  std::exception_ptr error;  // exceptions must not unwind through argp's C frames
};

// "-p/--pid", "--dry-run" or "-B" (an alias row has no long name).
std::string option_label(const argp_option& opt) {
  std::string label;
  if (opt.key > 0 && opt.key < 256) label = std::string("-") + static_cast<char>(opt.key);
  if (opt.name) label.append(label.empty() ? "--" : "/--").append(opt.name);
  return label;
}

const OptionSpec* find_spec(int key) {
  for (const auto& spec : option_specs()) {
    if (spec.apply && spec.argp.key == key) return &spec;
  }
  return nullptr;
}

void apply(const OptionSpec& spec, CliState& cli, const char* arg) {
  try {
    spec.apply(cli, arg);
  } catch (const InvalidValue& e) {
    throw invalid_value(option_label(spec.argp), arg ? arg : "", e);
  }
}

error_t on_argp_key(int key, char* arg, argp_state* state) {
  auto& run = *static_cast<ParseRun*>(state->input);
  run.cli.argp = state;
  try {
    if (key == ARGP_KEY_ARG) throw UserError("unexpected argument '" + std::string(arg) + "'");
    const OptionSpec* spec = find_spec(key);
    if (!spec) return ARGP_ERR_UNKNOWN;  // argp's own keys: init, end, success, ...
    apply(*spec, run.cli, arg);
  } catch (...) {
    run.error = std::current_exception();
    return kStop;
  }
  return run.cli.opts.help_shown ? kStop : 0;
}

std::vector<argp_option> argp_options() {
  std::vector<argp_option> opts;
  for (const auto& spec : option_specs()) opts.push_back(spec.argp);
  opts.push_back({});
  return opts;
}

[[noreturn]] void rethrow_with_hint(const std::exception_ptr& error) {
  try {
    std::rethrow_exception(error);
  } catch (const UserError& e) {
    if (!e.hint().empty()) throw;
    throw UserError(e.what(), kHelpHint);
  }
}

// getopt prints "PROG: unrecognized option '--foo'" and argp adds its own "Try ..." line: keep
// just the message.
std::string getopt_message(const std::string& captured, const char* prog) {
  std::string line = captured.substr(0, captured.find('\n'));
  std::string prefix = std::string(prog) + ": ";
  if (line.starts_with(prefix)) line.erase(0, prefix.size());
  return line.empty() ? "invalid command line" : line;
}

void check_conflicts(const Options& opts) {
  if (!opts.run_as_user.empty() && opts.command.empty())
    throw UserError("--user needs a command after '--'", kHelpHint);
  if (opts.success_stacks == SuccessStacks::Yes && !opts.allow_errors.empty()) {
    throw UserError("-x and -S are mutually exclusive", kHelpHint);
  }
  if (opts.zoom_rounds && !opts.callee_globs.empty())
    throw UserError("--zoom chooses each round's callees itself: it cannot go with --callees",
                    kHelpHint);
  if (opts.zoom_rounds && opts.dry_run)
    throw UserError("--zoom traces round after round: it cannot go with --dry-run", kHelpHint);
  if (!opts.export_trace.empty() && !opts.trace) {
    throw UserError("--export-trace needs -T: only call traces have slices to export", kHelpHint);
  }
}

// A return-value filter is about results, successful ones included: --allow-retval 1..1000
// reports calls that returned 1 to 1000 without -S, as in upstream retsnoop. An explicit -Sn
// still keeps to failures.
void imply_success_stacks(Options& opts) {
  bool retval_filter = !opts.allow_retvals.empty() || !opts.deny_retvals.empty();
  if (retval_filter && opts.success_stacks == SuccessStacks::Default)
    opts.success_stacks = SuccessStacks::Yes;
}

}  // namespace

Options parse_options(int argc, char** argv, std::FILE* help_out) {
  static const std::vector<argp_option> opts = argp_options();
  static const argp parser = {opts.data(), on_argp_key, nullptr, kDoc};

  ParseRun run;
  run.cli.help_out = help_out;
  CommandSplit split = split_at_command(argc, argv);
  if (split.has_separator && split.command.empty())
    throw UserError("no command after '--'", kHelpHint);
  error_t rc;
  std::string captured;
  {
    StderrCapture capture;
    rc = argp_parse(&parser, split.own_argc, argv, ARGP_NO_EXIT | ARGP_NO_HELP, nullptr, &run);
    captured = capture.text();
  }
  if (run.error) rethrow_with_hint(run.error);
  if (run.cli.opts.help_shown) return run.cli.opts;
  if (rc) throw UserError(getopt_message(captured, argc > 0 ? argv[0] : ""), kHelpHint);
  run.cli.opts.command = std::move(split.command);
  check_conflicts(run.cli.opts);
  imply_success_stacks(run.cli.opts);
  return run.cli.opts;
}

}  // namespace retsnoop
