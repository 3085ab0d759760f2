#include "discovery/traced_func_args.h"

#include <gtest/gtest.h>

#include "btf_fixture.h"

namespace retsnoop {
namespace {

using test_support::BtfDir;

TEST(FuncArgsPlan, TypedForExactBtfNamesRawOtherwise) {
  BtfDir dir;
  KernelBtf btf(dir.path());
  FuncType sys_bpf = btf.func_type("", "__sys_bpf");
  FuncType kvm = btf.func_type("kvm", "kvm_read_guest");
  ASSERT_NE(sys_bpf.btf_id, 0u);
  ASSERT_NE(kvm.btf_id, 0u);
  FuncTable funcs = {
      {.name = "__sys_bpf", .has_btf = true, .btf_id = sys_bpf.btf_id},
      {.name = "kvm_read_guest", .module = "kvm", .has_btf = true, .btf_id = kvm.btf_id},
      {.name = "__sys_bpf.isra.0", .has_btf = true},
      {.name = "no_btf_at_all"},
      {.name = "__sys_bpf.llvm.123456", .has_btf = true},
  };
  std::vector<FuncArgs> plans = TracedFuncArgs(btf, {}).all(funcs);
  ASSERT_EQ(plans.size(), 5u);

  EXPECT_EQ(plans[0].btf, btf.btf_of(""));
  ASSERT_EQ(plans[0].args.size(), 1u);
  EXPECT_EQ(plans[0].args[0].name, "cmd");
  EXPECT_NE(plans[0].args[0].type_id, 0u);

  EXPECT_EQ(plans[1].btf, btf.btf_of("kvm"));
  EXPECT_NE(plans[1].btf, plans[0].btf);
  EXPECT_TRUE(plans[1].args.empty());
  EXPECT_TRUE(plans[1].raw_reason.empty());

  EXPECT_EQ(plans[2].btf, nullptr);
  EXPECT_EQ(plans[2].raw_reason,
            "compiler clone of __sys_bpf: its registers may not follow the prototype");
  EXPECT_EQ(plans[2].args.size(), arg_register_slots());

  EXPECT_EQ(plans[3].raw_reason, "no BTF prototype");
  EXPECT_EQ(plans[3].args.size(), arg_register_slots());

  // A ThinLTO rename keeps the code, so its source prototype holds.
  EXPECT_EQ(plans[4].btf, btf.btf_of(""));
  ASSERT_EQ(plans[4].args.size(), 1u);
  EXPECT_EQ(plans[4].args[0].name, "cmd");
}

TEST(FuncArgsPlan, NoBtfForTheModule) {
  BtfDir dir;
  KernelBtf btf(dir.path());
  EXPECT_EQ(btf.btf_of("not_a_module"), nullptr);
  FuncTable funcs = {{.name = "f", .module = "not_a_module", .btf_id = 7}};
  EXPECT_EQ(TracedFuncArgs(btf, {}).all(funcs)[0].raw_reason, "no BTF prototype");
}

}  // namespace
}  // namespace retsnoop
