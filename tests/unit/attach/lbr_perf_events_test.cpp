#include "attach/lbr_perf_events.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <filesystem>
#include <iterator>

#include "attach/online_cpus.h"

namespace retsnoop {
namespace {

TEST(LbrEventAttr, CountsCyclesWithABranchStackAndNoSampling) {
  perf_event_attr a = lbr_event_attr(0);
  EXPECT_EQ(a.size, sizeof(perf_event_attr));
  EXPECT_EQ(a.type, PERF_TYPE_HARDWARE);
  EXPECT_EQ(a.config, PERF_COUNT_HW_CPU_CYCLES);
  EXPECT_EQ(a.sample_type, PERF_SAMPLE_BRANCH_STACK);
  EXPECT_EQ(a.sample_period, 0u);
  EXPECT_EQ(a.freq, 0u);
  EXPECT_EQ(a.disabled, 0u);  // recording from the moment it is opened
}

TEST(LbrEventAttr, KernelReturnsByDefault) {
  EXPECT_EQ(lbr_event_attr(0).branch_sample_type,
            PERF_SAMPLE_BRANCH_KERNEL | PERF_SAMPLE_BRANCH_ANY_RETURN);
}

TEST(LbrEventAttr, UserTypesReplaceTheDefault) {
  EXPECT_EQ(lbr_event_attr(PERF_SAMPLE_BRANCH_ANY).branch_sample_type,
            PERF_SAMPLE_BRANCH_KERNEL | PERF_SAMPLE_BRANCH_ANY);
  EXPECT_EQ(lbr_event_attr(PERF_SAMPLE_BRANCH_COND | PERF_SAMPLE_BRANCH_CALL).branch_sample_type,
            PERF_SAMPLE_BRANCH_KERNEL | PERF_SAMPLE_BRANCH_COND | PERF_SAMPLE_BRANCH_CALL);
}

TEST(LbrOpenFailure, MissingPmuIsNamed) {
  for (int err : {ENOENT, EOPNOTSUPP, EINVAL}) {
    EXPECT_EQ(lbr_open_failure_reason(err, true),
              "this CPU has no branch-stack PMU, as is usual in virtual machines")
        << err;
  }
}

TEST(LbrOpenFailure, ACustomSpecMayBeTheCause) {
  for (int err : {EOPNOTSUPP, EINVAL}) {
    std::string reason = lbr_open_failure_reason(err, false);
    EXPECT_NE(reason.find("no branch-stack PMU"), std::string::npos) << reason;
    EXPECT_NE(reason.find("--lbr SPEC"), std::string::npos) << reason;
  }
}

// ENOENT: no PMU takes hardware events at all, whatever the filter.
TEST(LbrOpenFailure, NoPmuAtAllIsNotBlamedOnTheSpec) {
  EXPECT_EQ(lbr_open_failure_reason(ENOENT, false), lbr_open_failure_reason(ENOENT, true));
}

TEST(LbrOpenFailure, PrivilegesAreNamed) {
  for (int err : {EACCES, EPERM}) {
    EXPECT_EQ(lbr_open_failure_reason(err, true),
              "not permitted to open CPU-wide perf events (needs root or CAP_PERFMON)");
  }
}

TEST(LbrOpenFailure, OtherErrorsStillSaySomething) {
  EXPECT_FALSE(lbr_open_failure_reason(EBUSY, true).empty());
  EXPECT_FALSE(lbr_open_failure_reason(EMFILE, true).empty());
}

TEST(LbrUnavailable, OneLineWithoutHint) {
  LbrUnavailable e = lbr_unavailable("reason");
  EXPECT_STREQ(e.what(), "LBR is unavailable: reason");
  EXPECT_TRUE(e.hint().empty());
}

size_t open_fds() {
  auto fds = std::filesystem::directory_iterator("/proc/self/fd");
  return static_cast<size_t>(std::distance(begin(fds), end(fds)));
}

// Hosts differ (this one may be a VM, or lack privileges): both outcomes are fine, a crash, a
// different error or a leaked descriptor is not.
TEST(LbrPerfEvents, OpensOnEveryOnlineCpuOrSaysWhyNot) {
  size_t fds_before = open_fds();
  try {
    LbrPerfEvents events(0);
    EXPECT_EQ(events.cpu_count(), online_cpus().size());
  } catch (const UserError& e) {
    EXPECT_TRUE(std::string(e.what()).starts_with("LBR is unavailable: ")) << e.what();
  }
  EXPECT_EQ(open_fds(), fds_before);
}

}  // namespace
}  // namespace retsnoop
