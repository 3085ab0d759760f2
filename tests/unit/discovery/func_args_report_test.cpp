#include "discovery/func_args_report.h"

#include <gtest/gtest.h>

namespace retsnoop {
namespace {

FuncInfo func(const std::string& name) {
  FuncInfo f;
  f.name = name;
  return f;
}

FuncArgs plan(const std::string& raw_reason) {
  FuncArgs p;
  p.raw_reason = raw_reason;
  return p;
}

TEST(ArgPlanReport, SummarizesAndNamesRawFallbacksOnce) {
  FuncTable funcs = {func("typed"), func("dup"), func("dup"), func("other")};
  std::vector<FuncArgs> plans = {plan(""), plan("no BTF"), plan("no BTF"), plan("no BTF FUNC")};
  std::vector<std::string> notes = func_args_notes(funcs, plans);
  ASSERT_EQ(notes.size(), 3u);
  EXPECT_EQ(
      notes[0],
      "arguments will be captured (-A) for 4 functions: 1 typed from BTF, 3 as raw registers\n");
  EXPECT_EQ(notes[1], "  dup: raw registers, no BTF\n");
  EXPECT_EQ(notes[2], "  other: raw registers, no BTF FUNC\n");
}

TEST(ArgPlanReport, ManyRawFallbacksAreCounted) {
  FuncTable funcs;
  std::vector<FuncArgs> plans;
  for (size_t i = 0; i < kMaxRawNotes + 5; ++i) {
    funcs.push_back(func("f" + std::to_string(i)));
    plans.push_back(plan("no BTF"));
  }
  std::vector<std::string> notes = func_args_notes(funcs, plans);
  ASSERT_EQ(notes.size(), kMaxRawNotes + 2);
  EXPECT_EQ(notes.back(), "  ... and 5 more functions with raw registers\n");
}

TEST(ArgPlanReport, ProbesSayWhatTheyShow) {
  ProbeTable probes{parse_probe_spec("tp:sched:sched_process_exec"),
                    parse_probe_spec("kprobe:bprm_execve"), parse_probe_spec("tp:a:b")};
  FuncArgs tp;
  tp.args.push_back({"record", 0, {}});
  for (const char* name : {"filename", "pid"}) tp.tp_fields.push_back(TpField{.name = name});
  tp.uncaptured = 2;
  FuncArgs kp;
  kp.args.push_back({"regs", 0, {}});
  std::vector<std::string> notes = probe_args_notes(probes, {tp, kp, plan("no format")});
  ASSERT_EQ(notes.size(), 4u);
  EXPECT_EQ(notes[0], "probe hits will capture (-A), for 3 probes:\n");
  EXPECT_EQ(notes[1], "  tp:sched:sched_process_exec: filename, pid (2 more not captured)\n");
  EXPECT_EQ(notes[2], "  kprobe:bprm_execve: regs\n");
  EXPECT_EQ(notes[3], "  tp:a:b: nothing, no format\n");
}

TEST(ArgPlanReport, SystemCallWrappersSayWhichArgumentsTheyCapture) {
  FuncTable funcs = {func("__x64_sys_bpf"), func("__x64_sys_getpid")};
  FuncArgs bpf;
  bpf.syscall_regs = true;
  bpf.args = {{"cmd", 0, {}}, {"uattr", 0, {}}, {"size", 0, {}}};
  FuncArgs getpid;
  getpid.syscall_regs = true;
  std::vector<std::string> want = {
      "arguments will be captured (-A) for 2 functions: 2 typed from BTF, 0 as raw registers\n",
      "  __x64_sys_bpf: the system call's arguments cmd, uattr, size\n",
      "  __x64_sys_getpid: the system call's arguments (none)\n"};
  EXPECT_EQ(func_args_notes(funcs, {bpf, getpid}), want);
}

}  // namespace
}  // namespace retsnoop
