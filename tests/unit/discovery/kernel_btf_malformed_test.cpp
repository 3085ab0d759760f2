// BTF no compiler would emit (found by tests/fuzz/btf_fuzz): KernelBtf answers "no such function"
// or "no such member" instead of reading past the data or recursing without end. What libbpf
// refuses to load leaves KernelBtf without that BTF, every function of it included.
#include <bpf/btf.h>
#include <gtest/gtest.h>
#include <linux/btf.h>

#include <string>

#include "discovery/kernel_btf.h"
#include "synthetic_btf.h"
#include "temp_dir.h"

namespace retsnoop {
namespace {

class MalformedBtf : public ::testing::Test {
 protected:
  test::TempDir dir;
  test_support::SyntheticBtf b;

  // b's type id, to edit in place before write().
  struct btf_type* type(int id) {
    return const_cast<struct btf_type*>(btf__type_by_id(b.get(), id));
  }

  // b as the vmlinux of a /sys/kernel/btf look-alike; returns the directory.
  std::string write() {
    uint32_t size = 0;
    const void* raw = btf__raw_data(b.get(), &size);
    dir.write("vmlinux", std::string(static_cast<const char*>(raw), size));
    return dir.path();
  }

  // After b got a broken func named `name`: libbpf refuses the whole BTF, so that not even a
  // sound func added next is found.
  void expect_refused(const char* name) {
    b.func("sound", b.proto(0, {}));
    KernelBtf btf(write());
    EXPECT_FALSE(btf.has_func("", name));
    EXPECT_FALSE(btf.func_type("", name).has_btf);
    EXPECT_FALSE(btf.has_func("", "sound"));
    EXPECT_FALSE(btf.func_type("", "sound").has_btf);
  }
};

TEST_F(MalformedBtf, FuncNamedPastTheStringsIsRefused) {
  int fn = b.func("lost_name", b.proto(0, {}));
  type(fn)->name_off = 0xfffffff;
  expect_refused("lost_name");
}

TEST_F(MalformedBtf, StructHoldingItselfAnonymouslyHasNoSuchMember) {
  int int_id = b.int_type("int", 4, BTF_INT_SIGNED);
  int self = btf__add_struct(b.get(), "loop", 8);
  b.ok(btf__add_field(b.get(), "x", int_id, 0, 0));
  b.ok(btf__add_field(b.get(), nullptr, self, 32, 0));
  KernelBtf btf(write());
  EXPECT_TRUE(btf.has_member(BTF_KIND_STRUCT, "loop", "x"));
  EXPECT_FALSE(btf.has_member(BTF_KIND_STRUCT, "loop", "y"));
}

TEST_F(MalformedBtf, FuncTypedByAnIntIsRefused) {
  int int_id = b.int_type("int", 4, BTF_INT_SIGNED);
  int fn = b.func("typed_by_int", b.proto(int_id, {}));
  type(fn)->type = int_id;
  expect_refused("typed_by_int");
}

TEST_F(MalformedBtf, FuncOfADanglingTypeIsRefused) {
  int fn = b.func("dangling", b.proto(0, {}));
  type(fn)->type = 0xfffff;
  expect_refused("dangling");
}

TEST_F(MalformedBtf, ReturnTypeInATypedefCycleIsVoid) {
  int a = b.typedef_of("a_t", 0);
  int a_to_b = b.typedef_of("b_t", a);
  type(a)->type = a_to_b;
  b.func("loops", b.proto(a, {}));
  KernelBtf btf(write());
  FuncType t = btf.func_type("", "loops");
  EXPECT_TRUE(t.has_btf);
  EXPECT_EQ(t.ret, RetKind::Void);
}

}  // namespace
}  // namespace retsnoop
