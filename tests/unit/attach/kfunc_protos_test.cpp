#include "attach/kfunc_protos.h"

#include <bpf/btf.h>
#include <gtest/gtest.h>

#include "synthetic_btf.h"
#include "util/error.h"

namespace retsnoop {
namespace {

using test_support::SyntheticBtf;

// A kfunc as an object declares it (extern linkage) or a kernel defines it, returning u64 *.
int add_kfunc(SyntheticBtf& b, const char* name,
              std::initializer_list<std::pair<const char*, int>> param_kinds, int linkage) {
  int u64 = b.int_type("u64", 8, 0);
  int proto = b.proto(b.ptr(u64), param_kinds);
  int id = btf__add_func(b.get(), name, static_cast<btf_func_linkage>(linkage), proto);
  EXPECT_GT(id, 0);
  return id;
}

unsigned param_count(const SyntheticBtf& b, int func_id) {
  const btf_type* func = btf__type_by_id(b.get(), func_id);
  return btf_vlen(btf__type_by_id(b.get(), func->type));
}

TEST(KfuncProtos, DropsWhatAnOlderKernelDoesNotTake) {
  SyntheticBtf obj, kernel;
  int ctx = obj.ptr(0);
  int id = add_kfunc(obj, "bpf_session_cookie", {{"ctx", ctx}}, BTF_FUNC_EXTERN);
  add_kfunc(kernel, "bpf_session_cookie", {}, BTF_FUNC_GLOBAL);

  std::vector<KfuncProtoChange> changes = match_kfunc_protos(obj.get(), kernel.get());

  ASSERT_EQ(changes.size(), 1u);
  EXPECT_EQ(changes[0].name, "bpf_session_cookie");
  EXPECT_EQ(changes[0].declared_params, 1u);
  EXPECT_EQ(changes[0].kernel_params, 0u);
  EXPECT_EQ(param_count(obj, id), 0u);
}

TEST(KfuncProtos, AddsAPointerANewerKernelTakes) {
  SyntheticBtf obj, kernel;
  int id = add_kfunc(obj, "bpf_session_is_return", {}, BTF_FUNC_EXTERN);
  add_kfunc(kernel, "bpf_session_is_return", {{"ctx", kernel.ptr(0)}}, BTF_FUNC_GLOBAL);

  ASSERT_EQ(match_kfunc_protos(obj.get(), kernel.get()).size(), 1u);

  const btf_type* proto = btf__type_by_id(obj.get(), btf__type_by_id(obj.get(), id)->type);
  ASSERT_EQ(btf_vlen(proto), 1u);
  const btf_type* param = btf__type_by_id(obj.get(), btf_params(proto)[0].type);
  EXPECT_TRUE(btf_is_ptr(param));
}

TEST(KfuncProtos, LeavesMatchingMissingAndNonExternFunctionsAlone) {
  SyntheticBtf obj, kernel;
  int same = add_kfunc(obj, "same_count", {{"ctx", obj.ptr(0)}}, BTF_FUNC_EXTERN);
  int missing = add_kfunc(obj, "not_in_kernel", {{"ctx", obj.ptr(0)}}, BTF_FUNC_EXTERN);
  int global = add_kfunc(obj, "our_own", {{"ctx", obj.ptr(0)}}, BTF_FUNC_GLOBAL);
  add_kfunc(kernel, "same_count", {{"p", kernel.ptr(0)}}, BTF_FUNC_GLOBAL);
  add_kfunc(kernel, "our_own", {}, BTF_FUNC_GLOBAL);

  EXPECT_TRUE(match_kfunc_protos(obj.get(), kernel.get()).empty());
  EXPECT_EQ(param_count(obj, same), 1u);
  EXPECT_EQ(param_count(obj, missing), 1u);
  EXPECT_EQ(param_count(obj, global), 1u);
}

TEST(KfuncProtos, RefusesAnAddedParameterThatIsNotAPointer) {
  SyntheticBtf obj, kernel;
  add_kfunc(obj, "bpf_thing", {}, BTF_FUNC_EXTERN);
  add_kfunc(kernel, "bpf_thing", {{"flags", kernel.int_type("int", 4, BTF_INT_SIGNED)}},
            BTF_FUNC_GLOBAL);

  EXPECT_THROW(match_kfunc_protos(obj.get(), kernel.get()), UserError);
}

TEST(KfuncProtos, NoBtfChangesNothing) {
  SyntheticBtf obj;
  EXPECT_TRUE(match_kfunc_protos(obj.get(), nullptr).empty());
  EXPECT_TRUE(match_kfunc_protos(nullptr, obj.get()).empty());
}

}  // namespace
}  // namespace retsnoop
