#include "app/features.h"

#include <gtest/gtest.h>

namespace retsnoop {
namespace {

TEST(Features, FixedTablesAnswerWhatTheyWereGiven) {
  Features f = Features::fixed({{Feature::Ringbuf, 1}, {Feature::FentryCookie, 1}});
  EXPECT_TRUE(f.has(Feature::Ringbuf));
  EXPECT_FALSE(f.has(Feature::MultiKprobe));
  EXPECT_EQ(f.value(Feature::FentryCookie), 1);
}

// -V -v: a header, then one tab-indented "label: value" a row.
TEST(Features, ReportFormat) {
  Features f = Features::fixed({{Feature::Ringbuf, 1},
                                {Feature::FuncIp, 1},
                                {Feature::BranchSnapshot, 1},
                                {Feature::BpfCookie, 1},
                                {Feature::FentryCookie, 1}});
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
            "\tkprobe missed counters supported: no\n");
}

}  // namespace
}  // namespace retsnoop
