#include "kernel/bpf_charge_user.h"

#include <gtest/gtest.h>
#include <unistd.h>

namespace retsnoop {
namespace {

TEST(BpfChargeUser, NothingWhereMemoryCgroupsAreCharged) {
  uid_t before = getuid();
  EXPECT_EQ(BpfChargeUser::take(Features::fixed({{Feature::MemcgAccounting, 1}})), nullptr);
  EXPECT_EQ(getuid(), before);
}

TEST(BpfChargeUser, TheRealUidIsItsOwnWhileHeldAndTheEffectiveOneStays) {
  if (geteuid() != 0) GTEST_SKIP() << "switching the real uid needs root";
  uid_t before = getuid();
  {
    std::unique_ptr<BpfChargeUser> charge =
        BpfChargeUser::take(Features::fixed({{Feature::MemcgAccounting, 0}}));
    ASSERT_NE(charge, nullptr);
    EXPECT_EQ(getuid(), BpfChargeUser::kUid);
    EXPECT_EQ(geteuid(), 0u);
  }
  EXPECT_EQ(getuid(), before);
}

}  // namespace
}  // namespace retsnoop
