#include "app/attach_choice.h"

#include <gtest/gtest.h>

#include "util/error.h"

namespace retsnoop {
namespace {

// The two test kernels: Debian's 6.1 has no multi-kprobe (no CONFIG_FPROBE), 6.12 has it.
Features kernel_6_1() {
  return Features::fixed({{Feature::BpfCookie, 1}, {Feature::FentryCookie, 1}});
}
Features kernel_6_12() {
  return Features::fixed({{Feature::BpfCookie, 1},
                          {Feature::FentryCookie, 1},
                          {Feature::MultiKprobe, 1}});
}

// Only readability is checked: any readable file stands in for the kernel's BTF.
constexpr const char* kSomeFile = "/proc/self/status";

TEST(AttachChoice, KernelSupportNeedsBtfRingbufAndCookies) {
  Features ok = Features::fixed({{Feature::Ringbuf, 1}, {Feature::BpfCookie, 1}});
  EXPECT_NO_THROW(check_kernel_support(ok, kSomeFile));
  EXPECT_THROW(check_kernel_support(ok, "/nonexistent/btf/vmlinux"), UserError);
  EXPECT_THROW(check_kernel_support(Features::fixed({{Feature::BpfCookie, 1}}), kSomeFile), UserError);
  EXPECT_THROW(check_kernel_support(Features::fixed({{Feature::Ringbuf, 1}}), kSomeFile), UserError);
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

TEST(AttachChoice, MultiKprobeFallsBackToKprobes) {
  EXPECT_EQ(choose_attach_kind(AttachMode::MultiKprobe, kernel_6_1()), AttachKind::Kprobe);
}

TEST(AttachChoice, FentryNeedsTrampolineCookies) {
  EXPECT_THROW(choose_attach_kind(AttachMode::Fentry, Features::fixed({{Feature::BpfCookie, 1}})),
               UserError);
}

TEST(AttachChoice, FentryPlansForBtfIds) {
  PlanOptions p;
  plan_for_attach(p, AttachKind::Kprobe);
  EXPECT_FALSE(p.fentry);
  plan_for_attach(p, AttachKind::Fentry);
  EXPECT_TRUE(p.fentry);
}

}  // namespace
}  // namespace retsnoop
