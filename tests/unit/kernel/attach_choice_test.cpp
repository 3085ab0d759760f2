#include "kernel/attach_choice.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <string>

#include "util/error.h"

namespace retsnoop {
namespace {

// The two test kernels: Debian's 6.1 has no multi-kprobe (no CONFIG_FPROBE), 6.12 has it.
Features kernel_6_1() {
  return Features::fixed({{Feature::Ringbuf, 1},
                          {Feature::BpfCookie, 1},
                          {Feature::FentryCookie, 1},
                          {Feature::Kprobes, 1},
                          {Feature::FentryAttach, 1},
                          {Feature::Tracefs, 1}});
}
Features kernel_6_12() {
  return Features::fixed({{Feature::Ringbuf, 1},
                          {Feature::BpfCookie, 1},
                          {Feature::FentryCookie, 1},
                          {Feature::Kprobes, 1},
                          {Feature::FentryAttach, 1},
                          {Feature::Tracefs, 1},
                          {Feature::MultiKprobe, 1}});
}

// A kernel built without kprobes and in integrity lockdown, which refuses the fentry probe's
// attach: what fentry_attach says is the only difference between the two tables below.
Features no_kprobes(int fentry_attach, int lockdown = 1) {
  return Features::fixed({{Feature::Ringbuf, 1},
                          {Feature::BpfCookie, 1},
                          {Feature::FentryCookie, 1},
                          {Feature::FentryAttach, fentry_attach},
                          {Feature::Lockdown, lockdown}});
}

// A kernel whose kprobes work but whose lockdown refuses the fentry attach.
Features fentry_refused() {
  return Features::fixed({{Feature::Ringbuf, 1},
                          {Feature::BpfCookie, 1},
                          {Feature::FentryCookie, 1},
                          {Feature::Kprobes, 1},
                          {Feature::FentryAttach, -EPERM},
                          {Feature::Lockdown, 1}});
}

// The message and hint of the UserError fn throws; "no error" when it throws none.
template <typename Fn>
std::string user_error(Fn fn) {
  try {
    fn();
  } catch (const UserError& e) {
    return std::string(e.what()) + " | " + e.hint();
  }
  return "no error";
}

// Only readability is checked: any readable file stands in for the kernel's BTF.
constexpr const char* kSomeFile = "/proc/self/status";

TEST(AttachChoice, KernelSupportNeedsBtfRingbufAndCookies) {
  Features ok =
      Features::fixed({{Feature::Ringbuf, 1}, {Feature::BpfCookie, 1}, {Feature::Kprobes, 1}});
  EXPECT_NO_THROW(check_kernel_support(ok, kSomeFile));
  EXPECT_THROW(check_kernel_support(ok, "/nonexistent/btf/vmlinux"), UserError);
  EXPECT_THROW(check_kernel_support(Features::fixed({{Feature::BpfCookie, 1}}), kSomeFile),
               UserError);
  EXPECT_THROW(check_kernel_support(Features::fixed({{Feature::Ringbuf, 1}}), kSomeFile),
               UserError);
}

TEST(AttachChoice, DefaultIsTheFastestSupported) {
  EXPECT_EQ(choose_attach_kind(AttachMode::Default, kernel_6_12()), AttachKind::MultiKprobe);
  EXPECT_EQ(choose_attach_kind(AttachMode::Default, kernel_6_1()), AttachKind::Kprobe);
}

TEST(AttachChoice, ExplicitModesAreHonored) {
  EXPECT_EQ(choose_attach_kind(AttachMode::Kprobe, kernel_6_12()), AttachKind::Kprobe);
  EXPECT_EQ(choose_attach_kind(AttachMode::Fentry, kernel_6_12()), AttachKind::Fentry);
  EXPECT_EQ(choose_attach_kind(AttachMode::Fentry, kernel_6_1()), AttachKind::Fentry);
  EXPECT_EQ(choose_attach_kind(AttachMode::MultiKprobe, kernel_6_12()), AttachKind::MultiKprobe);
}

// User-space functions: uprobe-multi links (6.6+), else uprobes with cookies (5.15+), else
// uprobes whose program copies carry the function id (5.10); none without uprobes.
TEST(AttachChoice, UprobeModeFollowsTheKernel) {
  Features multi = Features::fixed({{Feature::Uprobes, 1}, {Feature::MultiUprobe, 1}});
  Features cookies = Features::fixed({{Feature::Uprobes, 1}, {Feature::BpfCookie, 1}});
  Features k510 = Features::fixed({{Feature::Uprobes, 1}});
  EXPECT_EQ(choose_uprobe_mode(multi), UprobeMode::Multi);
  EXPECT_EQ(choose_uprobe_mode(cookies), UprobeMode::Single);
  EXPECT_EQ(choose_uprobe_mode(k510), UprobeMode::ByMark);
  EXPECT_EQ(uprobe_support(multi), "User-space functions attach with: uprobe-multi\n");
  EXPECT_EQ(uprobe_support(cookies), "User-space functions attach with: uprobe\n");
  EXPECT_EQ(uprobe_support(k510),
            "User-space functions attach with: uprobe (one program per function)\n");
}

TEST(AttachChoice, UprobesNeedUprobes) {
  Features none = Features::fixed({{Feature::BpfCookie, 1}, {Feature::MultiUprobe, 1}});
  try {
    choose_uprobe_mode(none);
    FAIL() << "no error";
  } catch (const UserError& e) {
    EXPECT_STREQ(e.what(),
                 "cannot trace user-space functions: this kernel has no uprobes "
                 "(CONFIG_UPROBE_EVENTS)");
  }
  EXPECT_EQ(uprobe_support(none),
            "User-space functions: not traceable: this kernel has no uprobes "
            "(CONFIG_UPROBE_EVENTS)\n");
}

TEST(AttachChoice, MultiKprobeFallsBackToKprobes) {
  EXPECT_EQ(choose_attach_kind(AttachMode::MultiKprobe, kernel_6_1()), AttachKind::Kprobe);
}

// 5.10: trampolines attach, but their links carry no cookie; each function's programs then
// hold its id (TracerObject::fentry_by_mark()), so -F works and the default stays kprobes.
TEST(AttachChoice, FentryWithoutTrampolineCookies) {
  Features f = Features::fixed({{Feature::Ringbuf, 1},
                                {Feature::Kprobes, 1},
                                {Feature::FentryAttach, 1},
                                {Feature::Tracefs, 1}});
  EXPECT_EQ(attach_blocker(AttachKind::Fentry, f), "");
  EXPECT_EQ(choose_attach_kind(AttachMode::Fentry, f), AttachKind::Fentry);
  EXPECT_EQ(choose_attach_kind(AttachMode::Default, f), AttachKind::Kprobe);
}

TEST(AttachChoice, NoMechanismIsOneDiagnosis) {
  EXPECT_EQ(user_error([] { check_kernel_support(no_kprobes(-EPERM), kSomeFile); }),
            "this kernel cannot trace functions: "
            "multi-kprobe: not supported by this kernel (Linux 5.18+ with CONFIG_FPROBE); "
            "kprobes: not built into this kernel (CONFIG_KPROBES); "
            "fentry: attach refused (EPERM; kernel lockdown: integrity) | "
            "retsnoop -V -v shows what it can do");
  for (AttachMode mode : {AttachMode::Default, AttachMode::MultiKprobe, AttachMode::Kprobe})
    EXPECT_THROW(choose_attach_kind(mode, no_kprobes(-EPERM)), UserError);
}

// Lockdown off says nothing; lockdown unknown (securityfs not mounted) says so.
TEST(AttachChoice, FentryRefusalNamesLockdownUnlessOff) {
  EXPECT_EQ(attach_blocker(AttachKind::Fentry, no_kprobes(-EPERM, 0)), "attach refused (EPERM)");
  EXPECT_EQ(attach_blocker(AttachKind::Fentry, no_kprobes(-EPERM, 2)),
            "attach refused (EPERM; kernel lockdown: confidentiality)");
  EXPECT_EQ(attach_blocker(AttachKind::Fentry, no_kprobes(-EPERM, -ENOENT)),
            "attach refused (EPERM; kernel lockdown: unknown (ENOENT))");
  constexpr int kEnotsupp = 524;  // kernel-internal: a trampoline that cannot take the prototype
  EXPECT_EQ(attach_blocker(AttachKind::Fentry, no_kprobes(-kEnotsupp, 0)),
            "attach refused (ENOTSUPP)");
}

TEST(AttachChoice, AnyWorkingMechanismIsEnough) {
  EXPECT_NO_THROW(check_kernel_support(no_kprobes(1), kSomeFile));
  EXPECT_NO_THROW(check_kernel_support(fentry_refused(), kSomeFile));
  EXPECT_EQ(why_nothing_attaches(kernel_6_1()), "");
}

TEST(AttachChoice, OnlyTheChosenMechanismMissingIsOneError) {
  EXPECT_EQ(user_error([] { choose_attach_kind(AttachMode::Fentry, fentry_refused()); }),
            "cannot attach with fentry: attach refused (EPERM; kernel lockdown: integrity) | "
            "use -K (single kprobes)");
  EXPECT_EQ(user_error([] { choose_attach_kind(AttachMode::Kprobe, no_kprobes(1)); }),
            "cannot attach with kprobes: not built into this kernel (CONFIG_KPROBES) | "
            "use -F (fentry/fexit)");
  EXPECT_EQ(user_error([] { choose_attach_kind(AttachMode::MultiKprobe, no_kprobes(1)); }),
            "cannot attach with kprobes: not built into this kernel (CONFIG_KPROBES) | "
            "use -F (fentry/fexit)");
}

TEST(AttachChoice, DefaultFallsBackToWhatWorks) {
  EXPECT_EQ(choose_attach_kind(AttachMode::Default, no_kprobes(1)), AttachKind::Fentry);
  EXPECT_EQ(choose_attach_kind(AttachMode::Default, fentry_refused()), AttachKind::Kprobe);
}

TEST(AttachChoice, FentryPlansForBtfIds) {
  PlanOptions p;
  plan_for_attach(p, AttachKind::Kprobe);
  EXPECT_FALSE(p.fentry);
  plan_for_attach(p, AttachKind::Fentry);
  EXPECT_TRUE(p.fentry);
}

// Kprobe events pay off where detaching a perf event waits for a grace period (6.1+); 5.10
// attaches faster with a perf event per probe.
TEST(AttachChoice, KprobeEventsWhereDetachWaits) {
  EXPECT_TRUE(kprobe_events_pay_off(Features::fixed({{Feature::PerfDetachWait, 1}})));
  EXPECT_FALSE(kprobe_events_pay_off(Features::fixed({{Feature::Kprobes, 1}})));
}

}  // namespace
}  // namespace retsnoop
