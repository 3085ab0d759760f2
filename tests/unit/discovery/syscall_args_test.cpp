#include "discovery/syscall_args.h"

#include <bpf/btf.h>
#include <gtest/gtest.h>

#include "discovery/traced_func_args.h"
#include "synthetic_btf.h"
#include "temp_dir.h"

namespace retsnoop {
namespace {

using test::TempDir;
using test_support::SyntheticBtf;

// The shape of the kernel's types around bpf(2).
class SyscallArgs : public ::testing::Test {
 protected:
  SyntheticBtf b;
  int i32 = b.int_type("int", 4, BTF_INT_SIGNED);
  int u32 = b.int_type("unsigned int", 4, 0);
  int i64 = b.int_type("long int", 8, BTF_INT_SIGNED);
  int chr = b.int_type("char", 1, BTF_INT_SIGNED);
  int attr = b.composite(true, "bpf_attr", 8, {{"map_type", u32, 0}});
  int attr_ptr = b.ptr(attr);
  int str = b.ptr(b.konst(chr));
  int cmd = b.enumeration("bpf_cmd", 4, {{"BPF_MAP_CREATE", 0}, {"BPF_MAP_LOOKUP_ELEM", 1}});
  int regs = b.structure("pt_regs", 8, {{"di", i64, 0}});
  int wrapper = b.func("__x64_sys_bpf", b.proto(i64, {{"regs", b.ptr(regs)}}));
  std::vector<SyscallParam> bpf_params = {
      {"cmd", "int"}, {"uattr", "union bpf_attr __user *"}, {"size", "unsigned int"}};
};

TEST_F(SyscallArgs, FromTheFormatFileNamedTypedAndInTheCallsSlots) {
  BtfTypeText types(b.get());
  FuncArgs plan = syscall_args_from_params(b.get(), types, "bpf", bpf_params);
  EXPECT_TRUE(plan.syscall_regs);
  EXPECT_TRUE(plan.raw_reason.empty());
  EXPECT_EQ(plan.btf, b.get());
  ASSERT_EQ(plan.args.size(), 3u);
  // int cmd is what enum bpf_cmd's values travel as: it takes the enum's type.
  EXPECT_EQ(plan.args[0].name, "cmd");
  EXPECT_EQ(plan.args[0].type_id, static_cast<uint32_t>(cmd));
  EXPECT_EQ(plan.args[0].spec.kind, RS_ARG_REG);
  EXPECT_EQ(plan.args[1].name, "uattr");
  EXPECT_EQ(plan.args[1].type_id, static_cast<uint32_t>(attr_ptr));
  EXPECT_EQ(plan.args[1].spec.kind, RS_ARG_PTR);
  EXPECT_EQ(plan.args[1].spec.size, 8u);
  EXPECT_EQ(plan.args[1].spec.flags, RS_ARG_USER);
  EXPECT_EQ(plan.args[2].name, "size");
  EXPECT_EQ(plan.args[2].type_id, static_cast<uint32_t>(u32));
  for (uint32_t i = 0; i < 3; ++i) {
    EXPECT_EQ(plan.args[i].spec.slot, i);
    EXPECT_EQ(plan.args[i].spec.slots, 1);
  }
  rs_func_args bpf = plan.to_bpf();
  EXPECT_EQ(bpf.cnt, 3u);
  EXPECT_EQ(bpf.stack_slots, 0);
  EXPECT_EQ(bpf.slots_from, RS_SLOTS_SYSCALL_REGS);
}

TEST_F(SyscallArgs, ATypeTheBtfDoesNotSpellLeavesTheArgumentNamedButUntyped) {
  BtfTypeText types(b.get());
  std::vector<SyscallParam> params = {
      {"buf", "struct stat __user *"}, {"name", "const char __user *"}, {"weird", "int (*)(void)"}};
  FuncArgs plan = syscall_args_from_params(b.get(), types, "stat", params);
  ASSERT_EQ(plan.args.size(), 3u);
  EXPECT_EQ(plan.args[0].name, "buf");
  EXPECT_EQ(plan.args[0].type_id, 0u);
  EXPECT_EQ(plan.args[0].spec.kind, RS_ARG_REG);
  EXPECT_EQ(plan.args[0].spec.flags, 0);
  EXPECT_EQ(plan.args[1].type_id, static_cast<uint32_t>(str));
  EXPECT_EQ(plan.args[1].spec.kind, RS_ARG_STR);
  EXPECT_EQ(plan.args[1].spec.flags, RS_ARG_USER);
  EXPECT_EQ(plan.args[2].type_id, 0u);
  EXPECT_EQ(plan.args[2].spec.slot, 2);
  // Without BTF at all, every argument is named and untyped.
  FuncArgs bare = syscall_args_from_params(nullptr, types, "bpf", bpf_params);
  ASSERT_EQ(bare.args.size(), 3u);
  EXPECT_EQ(bare.args[1].name, "uattr");
  EXPECT_EQ(bare.args[1].type_id, 0u);
  EXPECT_TRUE(bare.syscall_regs);
}

TEST_F(SyscallArgs, TheEnumIsTakenByIntegersOnly) {
  BtfTypeText types(b.get());
  b.enumeration("bpf_uattr", 4, {{"NOT_A_POINTER", 0}});
  FuncArgs plan = syscall_args_from_params(b.get(), types, "bpf", bpf_params);
  EXPECT_EQ(plan.args[1].type_id, static_cast<uint32_t>(attr_ptr));
  // An integer with no enum of that name keeps its own type.
  EXPECT_EQ(plan.args[2].type_id, static_cast<uint32_t>(u32));
}

TEST_F(SyscallArgs, FromThePrototypeOfTheSystemCallsBody) {
  int body =
      b.func("__do_sys_bpf", b.proto(i64, {{"cmd", i32}, {"uattr", attr_ptr}, {"size", u32}}));
  std::optional<FuncArgs> plan = syscall_args_from_prototype(b.get(), body, "bpf");
  ASSERT_TRUE(plan);
  EXPECT_TRUE(plan->syscall_regs);
  ASSERT_EQ(plan->args.size(), 3u);
  EXPECT_EQ(plan->args[0].type_id, static_cast<uint32_t>(cmd));
  EXPECT_EQ(plan->args[1].name, "uattr");
  EXPECT_EQ(plan->args[1].spec.kind, RS_ARG_PTR);
  EXPECT_EQ(plan->args[2].spec.slot, 2);
  // Seven parameters, or a variadic one, are no system call's.
  int seven = b.func(
      "__do_sys_seven",
      b.proto(
          i64,
          {{"a", i32}, {"b", i32}, {"c", i32}, {"d", i32}, {"e", i32}, {"f", i32}, {"g", i32}}));
  EXPECT_FALSE(syscall_args_from_prototype(b.get(), seven, "seven"));
  int variadic = b.func("__do_sys_va", b.proto(i64, {{"a", i32}, {nullptr, 0}}));
  EXPECT_FALSE(syscall_args_from_prototype(b.get(), variadic, "va"));
  EXPECT_FALSE(syscall_args_from_prototype(b.get(), i32, "int"));
}

// The kernel's files: vmlinux BTF in a /sys/kernel/btf look-alike, format files in a tracefs one.
class TracedSyscallArgs : public SyscallArgs {
 protected:
  TempDir dir;

  void SetUp() override {
    __u32 size = 0;
    const void* raw = btf__raw_data(b.get(), &size);
    dir.write("btf/vmlinux", std::string(static_cast<const char*>(raw), size));
    dir.write("tracing/events/syscalls/sys_enter_bpf/format",
              "format:\n"
              "\tfield:int __syscall_nr;\toffset:8;\tsize:4;\tsigned:1;\n"
              "\tfield:int cmd;\toffset:16;\tsize:8;\tsigned:0;\n"
              "\tfield:union bpf_attr __user * uattr;\toffset:24;\tsize:8;\tsigned:0;\n"
              "\tfield:unsigned int size;\toffset:32;\tsize:8;\tsigned:0;\n");
  }
};

TEST_F(TracedSyscallArgs, WrappersGetTheSystemCallsArgumentsOtherFunctionsTheirOwn) {
  KernelBtf btf(dir.path() + "/btf");
  FuncTable funcs = {
      {.name = "__x64_sys_bpf", .has_btf = true, .btf_id = static_cast<uint32_t>(wrapper)},
      {.name = "__arm64_sys_bpf"},
      {.name = "__x64_sys_nothing_known"},
      {.name = "__x64_sys_bpf", .module = "kvm"},
  };
  std::vector<FuncArgs> plans =
      TracedFuncArgs(btf, {dir.path() + "/missing", dir.path() + "/tracing"}).all(funcs);
  ASSERT_EQ(plans.size(), 4u);
  for (size_t i : {0, 1}) {
    EXPECT_TRUE(plans[i].syscall_regs);
    ASSERT_EQ(plans[i].args.size(), 3u);
    EXPECT_EQ(plans[i].args[0].name, "cmd");
    EXPECT_EQ(plans[i].args[2].name, "size");
  }
  // No metadata: the wrapper's own regs; a module's function of that name is no wrapper.
  EXPECT_FALSE(plans[2].syscall_regs);
  EXPECT_EQ(plans[2].raw_reason, "no BTF prototype");
  EXPECT_FALSE(plans[3].syscall_regs);
}

TEST_F(TracedSyscallArgs, TheBodysPrototypeComesFirstThenTheFormatThenTheSignExtender) {
  b.func("__do_sys_bpf", b.proto(i64, {{"body_cmd", i32}}));
  b.func("__se_sys_openat", b.proto(i64, {{"dfd", i64}, {"filename", i64}}));
  SetUp();
  KernelBtf btf(dir.path() + "/btf");
  TracedFuncArgs args(btf, {dir.path() + "/tracing"});
  FuncArgs bpf = args.of({.name = "__x64_sys_bpf"});
  ASSERT_EQ(bpf.args.size(), 1u);
  EXPECT_EQ(bpf.args[0].name, "body_cmd");
  FuncArgs openat = args.of({.name = "__x64_sys_openat"});
  EXPECT_TRUE(openat.syscall_regs);
  ASSERT_EQ(openat.args.size(), 2u);
  EXPECT_EQ(openat.args[1].name, "filename");
}

}  // namespace
}  // namespace retsnoop
