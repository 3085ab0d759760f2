#include "attach/load_diagnosis.h"

#include <bpf/libbpf.h>
#include <gtest/gtest.h>

namespace retsnoop {
namespace {

TEST(LoadFailureCause, NamesTheExternLibbpfCouldNotMatch) {
  EXPECT_EQ(load_failure_cause("libbpf: extern (func ksym) 'bpf_session_cookie': func_proto [142] "
                               "incompatible with kernel [35942]\n"
                               "libbpf: failed to load object 'rs_tracer'\n"),
            "extern 'bpf_session_cookie': func_proto [142] incompatible with kernel [35942]");
}

TEST(LoadFailureCause, NamesTheMapTheKernelRefused) {
  EXPECT_EQ(
      load_failure_cause("libbpf: map 'task_verdicts': failed to create: Invalid argument(-22)\n"),
      "map 'task_verdicts': cannot create it: Invalid argument(-22)");
}

TEST(LoadFailureCause, QuotesTheVerifiersLastReason) {
  std::string log =
      "libbpf: prog 'rs_keventry': BPF program load failed: Invalid argument\n"
      "libbpf: prog 'rs_keventry': -- BEGIN PROG LOAD LOG --\n"
      "0: R1=ctx(off=0,imm=0) R10=fp0\n"
      "; int rs_keventry(struct pt_regs *ctx)\n"
      "12: (85) call unknown#174\n"
      "invalid func unknown#174\n"
      "processed 12 insns (limit 1000000) max_states_per_insn 0 total_states 1\n"
      "-- END PROG LOAD LOG --\n"
      "libbpf: prog 'rs_keventry': failed to load: -22\n";
  EXPECT_EQ(load_failure_cause(log),
            "prog 'rs_keventry': the verifier refused it: invalid func unknown#174");
}

TEST(LoadFailureCause, FallsBackToTheProgramTheKernelRefused) {
  EXPECT_EQ(
      load_failure_cause("libbpf: prog 'rs_fentry': BPF program load failed: Permission denied\n"),
      "prog 'rs_fentry': the kernel refused it: Permission denied");
}

TEST(LoadFailureCause, EmptyWhenNothingIsNamed) {
  EXPECT_EQ(load_failure_cause(""), "");
  EXPECT_EQ(load_failure_cause("libbpf: failed to load object 'rs_tracer'\n"), "");
}

// libbpf prints through the collector while it lives, and no longer afterwards.
TEST(LibbpfWarnings, CollectsWarningsWhileAlive) {
  {
    LibbpfWarnings warnings;
    // An object that is not ELF: libbpf warns as it refuses it.
    const char junk[] = "not an ELF object";
    bpf_object* obj = bpf_object__open_mem(junk, sizeof(junk), nullptr);
    EXPECT_EQ(obj, nullptr);
    EXPECT_FALSE(warnings.text().empty());
  }
  LibbpfWarnings again;
  EXPECT_TRUE(again.text().empty());
}

}  // namespace
}  // namespace retsnoop
