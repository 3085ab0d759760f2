#include "app/layer_configs.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "cli/option_table.h"
#include "cli/parse_options.h"
#include "cli/settings.h"

namespace retsnoop {
namespace {

const RunFacts kFacts{.kind = AttachKind::Kprobe, .symb = SymbLevel::Inlines, .lbr = false};

// What an option's arguments produce: the options, and each layer's configuration from them.
struct Mapped {
  Options opts;
  LayerConfigs cfg;
  PlanOptions plan;
  ZoomOptions zoom;
};

Mapped map_args(std::vector<std::string> args, const RunFacts& facts = kFacts) {
  args.insert(args.begin(), "retsnoop");
  std::vector<char*> argv;
  argv.reserve(args.size());
  for (std::string& a : args) argv.push_back(a.data());
  Options opts = parse_options(int(argv.size()), argv.data());
  LayerConfigs cfg = layer_configs(opts, facts);
  PlanOptions plan = plan_options(opts);
  ZoomOptions zoom = zoom_options(opts);
  return {std::move(opts), std::move(cfg), std::move(plan), zoom};
}

// A failing session: the entry function (id 0, int) returned -EINVAL.
bool reports_einval(const SessionFilter& f) {
  static const FuncTable funcs = {{.name = "__sys_bpf", .ret = RetKind::Int32}};
  Session s;
  s.is_error = true;
  s.calls.push_back({.func_id = 0, .res = -EINVAL});
  return f.reports(s, funcs);
}

// Where each option goes. A layer option names the config field it sets; the options that
// run() acts on itself before tracing (discovery inputs, the command, help and diagnostics)
// name the Options field it reads. Every option of the tables must have a row.
struct Reach {
  std::vector<std::string> args;
  std::function<bool(const Mapped&)> reached;
};

// Selection and modes.
std::map<std::string, Reach> mode_option_reach() {
  return {
      {"entry", {{"-e", "f"}, [](const Mapped& m) { return m.plan.entry_globs.size() == 1; }}},
      {"allow", {{"-a", "f"}, [](const Mapped& m) { return m.plan.allow_globs.size() == 1; }}},
      {"deny", {{"-d", "f"}, [](const Mapped& m) { return m.plan.deny_globs.size() == 1; }}},
      {"case", {{"-c", "bpf"}, [](const Mapped& m) { return m.plan.presets.size() == 1; }}},
      {"callees",
       {{"--callees", "f:2"}, [](const Mapped& m) { return m.plan.callee_globs.size() == 1; }}},
      {"inject-probe",
       {{"-J", "kprobe:f"}, [](const Mapped& m) { return !m.opts.probes.empty(); }}},
      {"trace",
       {{"-T"}, [](const Mapped& m) { return m.cfg.tracer.emit_trace && m.cfg.format.calltrace; }}},
      // Accepted for compatibility, changes nothing: the check is that nothing differs.
      {"call-stack", {{"-E"}, [](const Mapped& m) { return !m.cfg.tracer.emit_trace; }}},
      {"lbr", {{"--lbr=call"}, [](const Mapped& m) { return m.opts.lbr && m.opts.lbr_flags; }}},
      {"-B", {{"-B"}, [](const Mapped& m) { return m.opts.lbr; }}},
      {"lbr-max-count",
       {{"--lbr-max-count=3"}, [](const Mapped& m) { return m.cfg.format.lbr_max_count == 3; }}},
      {"line-trace",
       {{"--line-trace=f"}, [](const Mapped& m) { return m.cfg.tracer.line_max == 64; }}},
      {"capture-args",
       {{"-A"}, [](const Mapped& m) { return m.cfg.loop.capture_args && m.plan.capture_args; }}},
      {"interim-stacks", {{"-I"}, [](const Mapped& m) { return m.cfg.tracer.interim_stacks; }}},
      {"dry-run", {{"--dry-run"}, [](const Mapped& m) { return m.opts.dry_run; }}},
      {"user-stacks",
       {{"-U"},
        [](const Mapped& m) { return m.cfg.tracer.capture_ustack && m.cfg.loop.user_stacks; }}},
      {"kprobes-multi",
       {{"-M"}, [](const Mapped& m) { return m.opts.attach_mode == AttachMode::MultiKprobe; }}},
      {"kprobes",
       {{"-K"}, [](const Mapped& m) { return m.opts.attach_mode == AttachMode::Kprobe; }}},
      {"fentries",
       {{"-F"}, [](const Mapped& m) { return m.opts.attach_mode == AttachMode::Fentry; }}},
  };
}

// Filters, the command, symbolization and output.
std::map<std::string, Reach> filter_and_output_option_reach() {
  return {
      {"success-stacks", {{"-S"}, [](const Mapped& m) { return m.cfg.tracer.success_stacks; }}},
      {"allow-errors",
       {{"-x", "ENOENT"}, [](const Mapped& m) { return !reports_einval(m.cfg.filter); }}},
      {"deny-errors",
       {{"-X", "EINVAL"}, [](const Mapped& m) { return !reports_einval(m.cfg.filter); }}},
      {"allow-retval",
       {{"--allow-retval=0"}, [](const Mapped& m) { return !reports_einval(m.cfg.filter); }}},
      {"deny-retval",
       {{"--deny-retval=-EINVAL"}, [](const Mapped& m) { return !reports_einval(m.cfg.filter); }}},
      {"pid", {{"-p", "7"}, [](const Mapped& m) { return m.cfg.tracer.allow_pids.size() == 1; }}},
      {"no-pid", {{"-P", "7"}, [](const Mapped& m) { return m.cfg.tracer.deny_pids.size() == 1; }}},
      {"comm",
       {{"-n", "cat"}, [](const Mapped& m) { return m.cfg.tracer.allow_comms.size() == 1; }}},
      {"no-comm",
       {{"-N", "cat"}, [](const Mapped& m) { return m.cfg.tracer.deny_comms.size() == 1; }}},
      {"arg-filter",
       {{"--arg-filter=x == 1"},
        [](const Mapped& m) { return m.plan.keep_btf && m.opts.arg_filters.size() == 1; }}},
      {"cgroup",
       {{"--cgroup=/c"}, [](const Mapped& m) { return m.opts.allow_cgroups.size() == 1; }}},
      {"no-cgroup",
       {{"--no-cgroup=/c"}, [](const Mapped& m) { return m.opts.deny_cgroups.size() == 1; }}},
      {"user",
       {{"--user=nobody", "--", "true"},
        [](const Mapped& m) {
          return m.opts.run_as_user == "nobody" && m.cfg.tracer.follow_command;
        }}},
      {"zoom",
       {{"--zoom=3", "--", "true"},
        [](const Mapped& m) { return m.zoom.rounds == 3 && m.cfg.tracer.follow_command; }}},
      {"longer",
       {{"-L", "5"}, [](const Mapped& m) { return m.cfg.tracer.min_duration_ns == 5000000; }}},
      {"kernel", {{"-k", "/v"}, [](const Mapped& m) { return m.opts.kernel_path == "/v"; }}},
      {"symbolize", {{"-sn"}, [](const Mapped& m) { return !m.cfg.format.user_lines; }}},
      {"verbose", {{"-v"}, [](const Mapped& m) { return m.opts.verbosity == 1; }}},
      {"debug",
       {{"--debug=multi-kprobe"}, [](const Mapped& m) { return m.cfg.loop.debug_multi_kprobe; }}},
      {"config",
       {{"-C", "stacks.emit-addrs=yes"}, [](const Mapped& m) { return m.cfg.format.emit_addrs; }}},
      {"json", {{"--json"}, [](const Mapped& m) { return m.cfg.report.json; }}},
      {"summary", {{"--summary"}, [](const Mapped& m) { return m.cfg.report.summary; }}},
      {"export-trace",
       {{"-T", "--export-trace=t.json"},
        [](const Mapped& m) { return m.cfg.report.export_trace == "t.json"; }}},
      {"export-folded",
       {{"--export-folded=f.txt"},
        [](const Mapped& m) { return m.cfg.report.export_folded == "f.txt"; }}},
      {"version", {{"-V"}, [](const Mapped& m) { return m.opts.show_version; }}},
  };
}

const std::map<std::string, Reach>& option_reach() {
  static const std::map<std::string, Reach> reach = [] {
    std::map<std::string, Reach> all = mode_option_reach();
    all.merge(filter_and_output_option_reach());
    return all;
  }();
  return reach;
}

// Options that print and exit inside the parser: nothing of theirs reaches a layer.
const std::set<std::string> kParserOnly = {"help", "usage", "config-help"};

// An args.* size limit reaches both the BPF side, which captures within it, and the renderer,
// which marks what it cut.
std::function<bool(const Mapped&)> limit_is_100(uint32_t ArgLimits::*limit) {
  return [limit](const Mapped& m) {
    return m.cfg.tracer.arg_limits.*limit == 100 && m.cfg.args.limits.*limit == 100;
  };
}

// Settings of the BPF side, attach, stacks and discovery.
std::map<std::string, Reach> tracer_setting_reach() {
  return {
      {"bpf.ringbuf-size",
       {{"-C", "bpf.ringbuf-size=16M"},
        [](const Mapped& m) { return m.cfg.tracer.ringbuf_size == 16u << 20; }}},
      {"bpf.sessions-size",
       {{"-C", "bpf.sessions-size=100"},
        [](const Mapped& m) { return m.cfg.tracer.sessions_size == 100; }}},
      {"attach.kprobe-events",
       {{"-C", "attach.kprobe-events=no"},
        [](const Mapped& m) { return !m.cfg.tracer.kprobe_events; }}},
      {"attach.expedite-rcu",
       {{"-C", "attach.expedite-rcu=yes"},
        [](const Mapped& m) { return m.cfg.loop.expedite_rcu; }}},
      {"stacks.symb-mode",
       {{"-C", "stacks.symb-mode=none"}, [](const Mapped& m) { return !m.cfg.format.user_lines; }}},
      {"stacks.unfiltered",
       {{"-C", "stacks.unfiltered=yes"},
        [](const Mapped& m) {
          return m.cfg.format.unfiltered_stacks && m.cfg.format.unfiltered_lbr;
        }}},
      {"stacks.emit-addrs",
       {{"-C", "stacks.emit-addrs=yes"}, [](const Mapped& m) { return m.cfg.format.emit_addrs; }}},
      {"stacks.dec-offs",
       {{"-C", "stacks.dec-offs=yes"}, [](const Mapped& m) { return m.cfg.format.dec_offsets; }}},
      {"stacks.repeats",
       {{"-C", "stacks.repeats=count"},
        [](const Mapped& m) { return m.cfg.tracer.count_repeats && m.cfg.loop.count_repeats; }}},
      {"lines.max-count",
       {{"--line-trace=f", "-C", "lines.max-count=5"},
        [](const Mapped& m) { return m.cfg.tracer.line_max == 5; }}},
      {"callees.max-functions",
       {{"-C", "callees.max-functions=7"},
        [](const Mapped& m) { return m.plan.max_callees == 7; }}},
      {"callees.max-sites",
       {{"-C", "callees.max-sites=9"}, [](const Mapped& m) { return m.plan.max_sites == 9; }}},
      {"zoom.depth", {{"-C", "zoom.depth=4"}, [](const Mapped& m) { return m.zoom.depth == 4; }}},
      {"messages.enabled",
       {{"-C", "messages.enabled=no"}, [](const Mapped& m) { return !m.cfg.loop.messages; }}},
      {"messages.max-count",
       {{"-C", "messages.max-count=3"},
        [](const Mapped& m) { return m.cfg.loop.messages_max_count == 3; }}},
      {"messages.max-len",
       {{"-C", "messages.max-len=30"},
        [](const Mapped& m) { return m.cfg.format.messages_max_len == 30; }}},
      {"user.retval",
       {{"-C", "user.retval=ptr"},
        [](const Mapped& m) { return m.plan.user.ret == RetKind::Ptr; }}},
  };
}

// Settings of argument capture and of the output.
std::map<std::string, Reach> output_setting_reach() {
  return {
      {"fmt.lbr-max-count",
       {{"-C", "fmt.lbr-max-count=4"},
        [](const Mapped& m) { return m.cfg.format.lbr_max_count == 4; }}},
      {"args.max-total-args-size",
       {{"-C", "args.max-total-args-size=100"}, limit_is_100(&ArgLimits::max_total_args_size)}},
      {"args.max-sized-arg-size",
       {{"-C", "args.max-sized-arg-size=100"}, limit_is_100(&ArgLimits::max_sized_arg_size)}},
      {"args.max-str-arg-size",
       {{"-C", "args.max-str-arg-size=100"}, limit_is_100(&ArgLimits::max_str_arg_size)}},
      {"args.capture-raw-ptrs",
       {{"-C", "args.capture-raw-ptrs=yes"},
        [](const Mapped& m) { return m.cfg.args.limits.capture_raw_ptrs; }}},
      {"args.fmt-mode",
       {{"-C", "args.fmt-mode=verbose"},
        [](const Mapped& m) { return m.cfg.args.mode == ArgFmtMode::Verbose; }}},
      {"args.fmt-max-arg-width",
       {{"-C", "args.fmt-max-arg-width=7"},
        [](const Mapped& m) { return m.cfg.args.max_arg_width == 7; }}},
      {"summary.interval",
       {{"--summary", "-C", "summary.interval=9"},
        [](const Mapped& m) { return m.cfg.report.summary_interval.count() == 9; }}},
  };
}

const std::map<std::string, Reach>& setting_reach() {
  static const std::map<std::string, Reach> reach = [] {
    std::map<std::string, Reach> all = tracer_setting_reach();
    all.merge(output_setting_reach());
    return all;
  }();
  return reach;
}

std::string option_name(const argp_option& o) {
  return o.name ? o.name : std::string("-") + char(o.key);
}

TEST(LayerConfigs, EveryOptionReachesWhatActsOnIt) {
  Mapped base = map_args({});
  for (const OptionSpec& spec : option_specs()) {
    if (!spec.apply) continue;  // a group header
    std::string name = option_name(spec.argp);
    if (kParserOnly.contains(name)) continue;
    auto it = option_reach().find(name);
    ASSERT_NE(it, option_reach().end())
        << "option " << name << " has no row here: say where it goes";
    EXPECT_TRUE(it->second.reached(map_args(it->second.args))) << "option " << name;
    if (name != "call-stack") {
      EXPECT_FALSE(it->second.reached(base)) << "option " << name;
    }
  }
}

TEST(LayerConfigs, EverySettingReachesItsLayer) {
  Mapped base = map_args({});
  for (const SettingInfo& s : setting_infos()) {
    auto it = setting_reach().find(s.key);
    ASSERT_NE(it, setting_reach().end()) << "setting " << s.key << " has no row here";
    EXPECT_TRUE(it->second.reached(map_args(it->second.args))) << "setting " << s.key;
    EXPECT_FALSE(it->second.reached(base)) << "setting " << s.key;
  }
}

TEST(LayerConfigs, RunFactsDecideWhatSomeOptionsMean) {
  Mapped lbr = map_args({"--lbr"}, {.kind = AttachKind::Kprobe, .lbr = true});
  EXPECT_TRUE(lbr.cfg.tracer.capture_lbr && lbr.cfg.format.lbr);
  // --lbr on a machine without a branch recorder traces without one.
  Mapped no_lbr = map_args({"--lbr"});
  EXPECT_FALSE(no_lbr.cfg.tracer.capture_lbr || no_lbr.cfg.format.lbr);
  // Multi-kprobes wait for few grace periods: expediting them would buy nothing.
  Mapped multi = map_args({"-C", "attach.expedite-rcu=yes"}, {.kind = AttachKind::MultiKprobe});
  EXPECT_FALSE(multi.cfg.loop.expedite_rcu);
  // Only single kprobes group into tracefs kprobe events.
  Mapped fentry = map_args({}, {.kind = AttachKind::Fentry});
  EXPECT_FALSE(fentry.cfg.tracer.kprobe_events);
  // By default, where the kernel makes them pay off; yes forces them anywhere.
  EXPECT_FALSE(map_args({}, {.kprobe_events_pay = false}).cfg.tracer.kprobe_events);
  EXPECT_TRUE(map_args({"-C", "attach.kprobe-events=yes"}, {.kprobe_events_pay = false})
                  .cfg.tracer.kprobe_events);
  EXPECT_EQ(map_args({}, {.symb = SymbLevel::Lines}).cfg.format.symb, SymbLevel::Lines);
}

TEST(LayerConfigs, ALongerLimitTooLargeForNanosecondsSaturates) {
  EXPECT_EQ(map_args({"-L", "18446744073709551615"}).cfg.tracer.min_duration_ns, UINT64_MAX);
}

TEST(LayerConfigs, CountedRepeatsKeepRetsnoopItselfOut) {
  Mapped m = map_args({"-C", "stacks.repeats=count"});
  ASSERT_EQ(m.cfg.tracer.deny_pids.size(), 1u);
  EXPECT_EQ(m.cfg.tracer.deny_pids[0], getpid());
}

}  // namespace
}  // namespace retsnoop
