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
};

TEST_F(MalformedBtf, FuncNamedPastTheStringsIsRefused) {
  int proto = b.proto(0, {});
  b.func("sound", proto);
  int fn = b.func("lost_name", proto);
  type(fn)->name_off = 0xfffffff;
  KernelBtf btf(write());
  EXPECT_FALSE(btf.has_func("", "lost_name"));
  EXPECT_FALSE(btf.has_func("", "sound"));
  EXPECT_FALSE(btf.func_type("", "sound").has_btf);
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
  int proto = b.proto(int_id, {});
  b.func("sound", proto);
  int typed_by_int = b.func("typed_by_int", proto);
  type(typed_by_int)->type = int_id;
  KernelBtf btf(write());
  EXPECT_FALSE(btf.func_type("", "typed_by_int").has_btf);
  EXPECT_FALSE(btf.func_type("", "sound").has_btf);
}

TEST_F(MalformedBtf, FuncOfADanglingTypeIsRefused) {
  int proto = b.proto(0, {});
  b.func("sound", proto);
  int dangling = b.func("dangling", proto);
  type(dangling)->type = 0xfffff;
  KernelBtf btf(write());
  EXPECT_FALSE(btf.func_type("", "dangling").has_btf);
  EXPECT_FALSE(btf.has_func("", "sound"));
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
