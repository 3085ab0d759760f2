#include "kernel/features.h"

#include <gtest/gtest.h>

#include <cerrno>

namespace retsnoop {
namespace {

TEST(Features, FixedTablesAnswerWhatTheyWereGiven) {
  Features f = Features::fixed({{Feature::Ringbuf, 1}, {Feature::FentryCookie, 1}});
  EXPECT_TRUE(f.has(Feature::Ringbuf));
  EXPECT_FALSE(f.has(Feature::MultiKprobe));
  EXPECT_EQ(f.value(Feature::FentryCookie), 1);
}

// The -V -v report: a header per block, one tab-indented "label: value" a row.
TEST(Features, ReportFormat) {
  Features f = Features::fixed({{Feature::Ringbuf, 1},
                                {Feature::FuncIp, 1},
                                {Feature::BranchSnapshot, 1},
                                {Feature::BpfCookie, 1},
                                {Feature::FentryCookie, 1},
                                {Feature::Kprobes, 1},
                                {Feature::FentryAttach, 1},
                                {Feature::Tracefs, 1},
                                {Feature::TaskBtf, 1},
                                {Feature::AtomicFetch, 1}});
  EXPECT_EQ(f.report(),
            "Feature detection:\n"
            "\tBPF ringbuf map supported: yes\n"
            "\tbpf_get_func_ip() supported: yes\n"
            "\tbpf_get_branch_snapshot() supported: yes\n"
            "\tBPF cookie supported: yes\n"
            "\tmulti-attach kprobe supported: no\n"
            "\tkprobe session supported: no\n"
            "\traw tracepoint cookie supported: no\n"
            "\tfentry/fexit cookie supported: yes\n"
            "\tkprobe missed counters supported: no\n"
            "\tkprobes supported: yes\n"
            "\tfentry/fexit attach supported: yes\n"
            "\ttracefs readable: yes\n"
            "\tkernel lockdown: none\n"
            "\tbpf_get_current_task_btf() supported: yes\n"
            "\ttask local storage supported: no\n"
            "\tBPF atomics with fetch supported: yes\n"
            "\tkretprobe stacks unwind: no\n"
            "\tkprobe session kfuncs take the context: no\n"
            "\tBPF memory charged to memory cgroups: no\n"
            "\tuprobes supported: no\n"
            "\tmulti-attach uprobe supported: no\n"
            "\tmulti-attach fentry/fexit supported: no\n"
            "\tperf event detach waits for a grace period: no\n");
}

// The rows a "cannot trace" diagnosis rests on say what the kernel answered.
TEST(Features, RefusalsShowTheKernelsAnswer) {
  Features f = Features::fixed(
      {{Feature::FentryAttach, -EPERM}, {Feature::Tracefs, -ENOENT}, {Feature::Lockdown, 1}});
  std::string report = f.report();
  EXPECT_NE(report.find("\tkprobes supported: no\n"), std::string::npos);
  EXPECT_NE(report.find("\tfentry/fexit attach supported: no (EPERM)\n"), std::string::npos);
  EXPECT_NE(report.find("\ttracefs readable: no (ENOENT)\n"), std::string::npos);
  EXPECT_NE(report.find("\tkernel lockdown: integrity\n"), std::string::npos);
}

}  // namespace
}  // namespace retsnoop
