#include "discovery/probe_args_plan.h"

#include <bpf/btf.h>
#include <gtest/gtest.h>

#include "synthetic_btf.h"
#include "temp_dir.h"

namespace retsnoop {
namespace {

using test_support::SyntheticBtf;

// The kernel's shape: typedef void (*btf_trace_NAME)(void *__data, ARGS...).
class ProbeArgsPlan : public ::testing::Test {
 protected:
  SyntheticBtf b;
  int i32 = b.int_type("int", 4, BTF_INT_SIGNED);
  int task = b.structure("task_struct", 8, {{"pid", i32, 0}, {"tgid", i32, 32}});
  int trace_proto = b.proto(0, {{"__data", b.ptr(0)}, {"p", b.ptr(task)}, {"old_pid", i32}});
  int trace_type = b.typedef_of("btf_trace_sched_process_exec", b.ptr(trace_proto));
};

TEST_F(ProbeArgsPlan, RawTracepointArgumentsStartAtSlotZeroAfterThePrivateData) {
  FuncArgs plan = plan_raw_tp_args(b.get(), "sched_process_exec");
  EXPECT_TRUE(plan.raw_reason.empty());
  EXPECT_EQ(plan.btf, b.get());
  ASSERT_EQ(plan.args.size(), 2u);
  EXPECT_EQ(plan.args[0].name, "p");
  EXPECT_EQ(plan.args[0].spec.slot, 0);
  EXPECT_EQ(plan.args[0].spec.kind, RS_ARG_PTR);
  EXPECT_EQ(plan.args[0].spec.size, 8u);
  EXPECT_EQ(plan.args[1].name, "old_pid");
  EXPECT_EQ(plan.args[1].spec.slot, 1);
  EXPECT_EQ(plan.args[1].spec.kind, RS_ARG_REG);
  EXPECT_EQ(plan.to_bpf().cnt, 2u);
}

TEST_F(ProbeArgsPlan, UnnamedParametersAreNumberedFromTheFirstSlot) {
  int unnamed = b.proto(0, {{nullptr, b.ptr(0)}, {nullptr, i32}, {nullptr, i32}});
  b.typedef_of("btf_trace_anon", b.ptr(unnamed));
  FuncArgs plan = plan_raw_tp_args(b.get(), "anon");
  ASSERT_EQ(plan.args.size(), 2u);
  EXPECT_EQ(plan.args[0].name, "arg0");
  EXPECT_EQ(plan.args[1].name, "arg1");
  EXPECT_EQ(plan.args[1].spec.slot, 1);
}

TEST_F(ProbeArgsPlan, NamesComeFromTheTracepointsBpfTraceFunction) {
  int unnamed = b.proto(0, {{nullptr, b.ptr(0)}, {nullptr, i32}});
  b.typedef_of("btf_trace_named", b.ptr(unnamed));
  b.func("__bpf_trace_named", b.proto(0, {{"__data", b.ptr(0)}, {"cpu", i32}}));
  FuncArgs plan = plan_raw_tp_args(b.get(), "named");
  ASSERT_EQ(plan.args.size(), 1u);
  EXPECT_EQ(plan.args[0].name, "cpu");
  EXPECT_EQ(plan.args[0].spec.slot, 0);
  // A function whose parameters differ from the typedef's is not used.
  b.typedef_of("btf_trace_other", b.ptr(unnamed));
  b.func("__bpf_trace_other", b.proto(0, {{"__data", b.ptr(0)}, {"a", i32}, {"b", i32}}));
  EXPECT_EQ(plan_raw_tp_args(b.get(), "other").args[0].name, "arg0");
}

TEST_F(ProbeArgsPlan, MissingOrMalformedTypeCapturesNothing) {
  FuncArgs missing = plan_raw_tp_args(b.get(), "no_such_tp");
  EXPECT_TRUE(missing.args.empty());
  EXPECT_EQ(missing.raw_reason, "no BTF prototype btf_trace_no_such_tp");
  b.typedef_of("btf_trace_not_a_pointer", i32);
  EXPECT_TRUE(plan_raw_tp_args(b.get(), "not_a_pointer").args.empty());
  EXPECT_TRUE(plan_raw_tp_args(nullptr, "sched_process_exec").args.empty());
}

TEST_F(ProbeArgsPlan, KprobesCaptureTheirRegistersAsOnePtRegs) {
  EXPECT_TRUE(plan_kprobe_args(b.get()).args.empty());  // no struct pt_regs yet
  int regs = b.structure("pt_regs", 16, {{"di", i32, 0}, {"si", i32, 64}});
  int regs_ptr = b.ptr(regs);
  EXPECT_EQ(plan_kprobe_args(b.get()).raw_reason, "");
  FuncArgs plan = plan_kprobe_args(b.get());
  ASSERT_EQ(plan.args.size(), 1u);
  EXPECT_EQ(plan.args[0].name, "regs");
  EXPECT_EQ(plan.args[0].type_id, static_cast<uint32_t>(regs_ptr));
  EXPECT_EQ(plan.args[0].spec.kind, RS_ARG_PTR);
  EXPECT_EQ(plan.args[0].spec.flags, RS_ARG_KERNEL);
  EXPECT_EQ(plan.args[0].spec.slot, 0);
  EXPECT_EQ(plan.args[0].spec.size, 16u);
}

constexpr const char* kHeader =
    "format:\n"
    "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
    "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n";

TEST_F(ProbeArgsPlan, EachKindGetsItsPlan) {
  ProbeTable probes{parse_probe_spec("tp:sched:sched_process_exec"),
                    parse_probe_spec("rawtp:sched_process_exec"),
                    parse_probe_spec("kprobe:bprm_execve"), parse_probe_spec("tp:sched:no_format")};
  test::TempDir tracefs;
  tracefs.write("events/sched/sched_process_exec/format",
                std::string(kHeader) + "\tfield:pid_t pid;\toffset:8;\tsize:4;\tsigned:1;\n");
  std::vector<std::string> dirs{tracefs.path()};
  std::vector<FuncArgs> plans = plan_probe_args(b.get(), probes, dirs);
  ASSERT_EQ(plans.size(), 4u);
  EXPECT_EQ(plans[0].to_bpf().cnt, 1u);
  ASSERT_EQ(plans[0].tp_fields.size(), 1u);
  EXPECT_EQ(plans[0].tp_fields[0].name, "pid");
  EXPECT_EQ(plans[1].args.size(), 2u);
  EXPECT_EQ(plans[2].to_bpf().cnt, 0u);  // no struct pt_regs in this BTF
  EXPECT_EQ(plans[3].to_bpf().cnt, 0u);
  EXPECT_EQ(plans[3].raw_reason, "no format file for tp:sched:no_format");
  b.ptr(b.structure("pt_regs", 8, {{"di", i32, 0}}));
  EXPECT_EQ(plan_probe_args(b.get(), probes, dirs)[2].args[0].name, "regs");
}

TEST(TpArgsPlan, RecordUpToItsLastFieldThenEachDataLocField) {
  FuncArgs plan =
      plan_tp_args(std::string(kHeader) +
                   "\tfield:__data_loc char[] filename;\toffset:8;\tsize:4;\tsigned:0;\n"
                   "\tfield:pid_t pid;\toffset:12;\tsize:4;\tsigned:1;\n"
                   "\tfield:__rel_loc char[] name;\toffset:16;\tsize:4;\tsigned:0;\n"
                   "\tfield:char comm[16];\toffset:20;\tsize:16;\tsigned:0;\n");
  EXPECT_TRUE(plan.raw_reason.empty());
  EXPECT_EQ(plan.btf, nullptr);
  ASSERT_EQ(plan.args.size(), 3u);
  EXPECT_EQ(plan.args[0].spec.kind, RS_ARG_PTR);
  EXPECT_EQ(plan.args[0].spec.flags, RS_ARG_KERNEL);
  EXPECT_EQ(plan.args[0].spec.slot, 0);
  EXPECT_EQ(plan.args[0].spec.size, 36u);  // common header included: offsets stay the kernel's
  EXPECT_EQ(plan.args[1].spec.kind, RS_ARG_DATA_LOC);
  EXPECT_EQ(plan.args[1].spec.size, 8u);
  EXPECT_EQ(plan.args[1].spec.flags, RS_ARG_KERNEL);
  EXPECT_EQ(plan.args[2].spec.size, 16u);
  EXPECT_EQ(plan.args[2].spec.flags, RS_ARG_KERNEL | RS_ARG_REL_LOC);
  ASSERT_EQ(plan.tp_fields.size(), 4u);
  EXPECT_EQ(plan.tp_fields[0].capture, 1u);
  EXPECT_EQ(plan.tp_fields[1].capture, 0u);
  EXPECT_EQ(plan.tp_fields[2].capture, 2u);
  EXPECT_EQ(plan.tp_fields[3].capture, 0u);
  EXPECT_EQ(plan.to_bpf().cnt, 3u);
}

TEST(TpArgsPlan, DataLocFieldsPastTheCaptureSlotsAreCountedNotShown) {
  std::string format = kHeader;
  constexpr int kFields = RS_MAX_ARG_SLOTS + 2;
  for (int i = 0; i < kFields; ++i) {
    format += "\tfield:__data_loc char[] s" + std::to_string(i) +
              ";\toffset:" + std::to_string(8 + 4 * i) + ";\tsize:4;\tsigned:0;\n";
  }
  FuncArgs plan = plan_tp_args(format);
  EXPECT_EQ(plan.args.size(), size_t{RS_MAX_ARG_SLOTS});
  EXPECT_EQ(plan.uncaptured, kFields - (RS_MAX_ARG_SLOTS - 1u));
  ASSERT_EQ(plan.tp_fields.size(), size_t{RS_MAX_ARG_SLOTS - 1});
  EXPECT_EQ(plan.tp_fields.back().name, "s" + std::to_string(RS_MAX_ARG_SLOTS - 2));
  EXPECT_EQ(plan.to_bpf().stack_slots, 0u);
}

TEST(TpArgsPlan, NoFieldsNoCapture) {
  FuncArgs plan = plan_tp_args(kHeader);
  EXPECT_TRUE(plan.args.empty());
  EXPECT_EQ(plan.to_bpf().cnt, 0u);
  EXPECT_FALSE(plan.raw_reason.empty());
}

}  // namespace
}  // namespace retsnoop
