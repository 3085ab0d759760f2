#include "discovery/kernel_btf.h"

#include <bpf/btf.h>
#include <gtest/gtest.h>

#include "btf_fixture.h"

namespace retsnoop {
namespace {

using test_support::BtfDir;

class BtfKinds : public ::testing::Test {
 protected:
  BtfDir dir;
  KernelBtf btf{dir.path()};

  RetKind ret(std::string_view name) {
    FuncType t = btf.func_type("", name);
    EXPECT_TRUE(t.has_btf) << name;
    return t.ret;
  }
};

TEST_F(BtfKinds, ClassifiesReturnTypes) {
  ASSERT_TRUE(btf.has_vmlinux());
  EXPECT_EQ(ret("ret_void"), RetKind::Void);
  EXPECT_EQ(ret("ret_bool"), RetKind::Bool);
  EXPECT_EQ(ret("ret_uint"), RetKind::Unsigned);
  EXPECT_EQ(ret("ret_ulong"), RetKind::Unsigned);
  EXPECT_EQ(ret("ret_schar"), RetKind::Int8);
  EXPECT_EQ(ret("ret_short"), RetKind::Int16);
  EXPECT_EQ(ret("ret_int"), RetKind::Int32);
  EXPECT_EQ(ret("ret_long"), RetKind::Int64);
  EXPECT_EQ(ret("ret_s64"), RetKind::Int64);
  EXPECT_EQ(ret("ret_enum"), RetKind::Int32);
  EXPECT_EQ(ret("ret_ptr"), RetKind::Ptr);
}

TEST_F(BtfKinds, ResolvesTypedefAndModifierChains) {
  EXPECT_EQ(ret("ret_typedef_chain"), RetKind::Int32);  // const volatile typedef of typedef int
  EXPECT_EQ(ret("ret_const_ptr"), RetKind::Ptr);
}

TEST_F(BtfKinds, RecordsTheFuncId) {
  struct btf* raw = btf__parse(test_support::kFixtureVmlinuxBtf.c_str(), nullptr);
  ASSERT_NE(raw, nullptr);
  int id = btf__find_by_name_kind(raw, "map_create", BTF_KIND_FUNC);
  btf__free(raw);
  EXPECT_GT(id, 0);
  EXPECT_EQ(btf.func_type("", "map_create").btf_id, uint32_t(id));
}

TEST_F(BtfKinds, CountsTheArguments) {
  EXPECT_EQ(btf.func_type("", "map_create").nargs, 1);
  EXPECT_EQ(btf.func_type("", "ret_int").nargs, 0);
  EXPECT_EQ(btf.func_type("kvm", "kvm_read_guest").nargs, 0);
}

TEST_F(BtfKinds, BpfHelpersGetTheirRealKind) {
  // BTF says u64 (BPF_CALL_2); the helper table knows it returns a pointer.
  EXPECT_EQ(ret("bpf_map_lookup_elem"), RetKind::Ptr);
}

TEST_F(BtfKinds, ConstpropClonesKeepTheSourceReturnTypeButNoFuncId) {
  FuncType t = btf.func_type("", "helper_fn.constprop.0");
  EXPECT_TRUE(t.has_btf);
  EXPECT_EQ(t.ret, RetKind::Int32);
  EXPECT_EQ(t.btf_id, 0u);
}

TEST_F(BtfKinds, IsraClonesMayDropTheResultSoHaveNoBtf) {
  FuncType t = btf.func_type("", "helper_fn.isra.0");
  EXPECT_FALSE(t.has_btf);
  EXPECT_EQ(t.ret, RetKind::Int32);
}

TEST_F(BtfKinds, UnknownFunctionsAreInt32WithoutBtf) {
  FuncType t = btf.func_type("", "no_btf_func");
  EXPECT_FALSE(t.has_btf);
  EXPECT_EQ(t.ret, RetKind::Int32);
  EXPECT_EQ(t.btf_id, 0u);
}

TEST_F(BtfKinds, ModuleFunctionsComeFromSplitBtf) {
  FuncType t = btf.func_type("kvm", "kvm_read_guest");
  EXPECT_TRUE(t.has_btf);
  EXPECT_EQ(t.ret, RetKind::Int32);
  // Split BTF ids continue after the base's.
  struct btf* raw = btf__parse(test_support::kFixtureVmlinuxBtf.c_str(), nullptr);
  EXPECT_GE(t.btf_id, btf__type_cnt(raw));
  btf__free(raw);
  EXPECT_EQ(btf.func_type("kvm", "kvm_get_vcpu").ret, RetKind::Ptr);
  // A module function is not looked up in vmlinux, nor vmlinux's in a module.
  EXPECT_FALSE(btf.func_type("", "kvm_read_guest").has_btf);
  EXPECT_FALSE(btf.func_type("kvm", "map_create").has_btf);
  EXPECT_TRUE(btf.has_func("kvm", "kvm_read_guest"));
}

TEST_F(BtfKinds, ModulesWithoutBtfAreTreatedAsNoBtf) {
  EXPECT_FALSE(btf.func_type("kvm_intel", "vmx_read_guest_seg_ar").has_btf);
  EXPECT_FALSE(btf.has_func("kvm_intel", "vmx_read_guest_seg_ar"));
}

TEST(BtfKindsMissing, NoVmlinuxBtfMeansNoBtfAnywhere) {
  KernelBtf btf("/nonexistent/btf");
  EXPECT_FALSE(btf.has_vmlinux());
  FuncType t = btf.func_type("", "map_create");
  EXPECT_FALSE(t.has_btf);
  EXPECT_EQ(t.ret, RetKind::Int32);
  EXPECT_FALSE(btf.func_type("kvm", "kvm_read_guest").has_btf);
}

}  // namespace
}  // namespace retsnoop
