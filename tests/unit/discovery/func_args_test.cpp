#include "discovery/func_args.h"

#include <bpf/btf.h>
#include <gtest/gtest.h>

#include "synthetic_btf.h"

namespace retsnoop {
namespace {

using test_support::SyntheticBtf;

struct Expect {
  const char* name;
  uint8_t kind;
  uint8_t flags;
  uint8_t slot;
  uint8_t slots;
  uint32_t size;
};

void expect_args(const FuncArgs& plan, std::initializer_list<Expect> want) {
  ASSERT_EQ(plan.args.size(), want.size());
  size_t i = 0;
  for (const Expect& w : want) {
    const ArgInfo& a = plan.args[i++];
    SCOPED_TRACE(w.name);
    EXPECT_EQ(a.name, w.name);
    EXPECT_EQ(a.spec.kind, w.kind);
    EXPECT_EQ(a.spec.flags, w.flags);
    EXPECT_EQ(a.spec.slot, w.slot);
    EXPECT_EQ(a.spec.slots, w.slots);
    EXPECT_EQ(a.spec.size, w.size);
  }
}

class ArgPlan : public ::testing::Test {
 protected:
  SyntheticBtf b;
  int i32 = b.int_type("int", 4, BTF_INT_SIGNED);
  int u64 = b.int_type("unsigned long", 8, 0);
  int chr = b.int_type("char", 1, BTF_INT_SIGNED);
  int u8 = b.int_type("unsigned char", 1, 0);
  int boolean = b.int_type("_Bool", 1, BTF_INT_BOOL);
  int i128 = b.int_type("__int128", 16, BTF_INT_SIGNED);
  int pair = b.structure("pair", 16, {{"a", u64, 0}, {"b", u64, 64}});
  int small = b.structure("small", 8, {{"a", i32, 0}, {"b", i32, 32}});
  int twelve = b.structure("twelve", 12, {{"a", i32, 0}, {"b", i32, 32}, {"c", i32, 64}});
  int big = b.structure("big", 32, {{"p", pair, 0}, {"q", pair, 128}});
};

TEST_F(ArgPlan, ScalarsTakeOneSlotEachAndKeepTheirNames) {
  int e1 = b.enumeration("e1", 1, {{"E1_A", 1}});
  int e8 = b.enumeration("e8", 8, {{"E8_A", 1}});
  int proto =
      b.proto(i32, {{"a", i32}, {"b", u64}, {"c", boolean}, {"d", chr}, {"e", e1}, {"f", e8}});
  FuncArgs plan = args_from_prototype(b.get(), b.func("f", proto));
  expect_args(plan, {{"a", RS_ARG_REG, 0, 0, 1, 0},
                     {"b", RS_ARG_REG, 0, 1, 1, 0},
                     {"c", RS_ARG_REG, 0, 2, 1, 0},
                     {"d", RS_ARG_REG, 0, 3, 1, 0},
                     {"e", RS_ARG_REG, 0, 4, 1, 0},
                     {"f", RS_ARG_REG, 0, 5, 1, 0}});
  EXPECT_EQ(plan.btf, b.get());
  EXPECT_EQ(plan.args[0].type_id, uint32_t(i32));
  EXPECT_FALSE(plan.variadic);
  EXPECT_EQ(plan.uncaptured, 0u);
  EXPECT_TRUE(plan.raw_reason.empty());
}

TEST_F(ArgPlan, PointersByPointee) {
  int const_char = b.konst(chr);
  int str_t = b.typedef_of("str_t", b.ptr(const_char));  // typedef const char *str_t
  int name_t = b.typedef_of("name_t", chr);              // const name_t * through a typedef
  int fwd = SyntheticBtf::checked(btf__add_fwd(b.get(), "opaque", BTF_FWD_STRUCT));
  int fn = b.proto(i32, {{"x", i32}});
  int pair_t = b.typedef_of("pair_t", b.typedef_of("pair_inner_t", pair));
  int cv_pair = SyntheticBtf::checked(btf__add_volatile(b.get(), b.konst(pair_t)));
  int proto = b.proto(i32, {{"s", str_t},
                            {"n", b.ptr(b.konst(name_t))},
                            {"p", b.ptr(cv_pair)},
                            {"v", b.ptr(0)},
                            {"cb", b.ptr(fn)},
                            {"pp", b.ptr(b.ptr(i32))}});
  expect_args(args_from_prototype(b.get(), proto), {{"s", RS_ARG_STR, 0, 0, 1, 0},
                                                    {"n", RS_ARG_STR, 0, 1, 1, 0},
                                                    {"p", RS_ARG_PTR, 0, 2, 1, 16},
                                                    {"v", RS_ARG_REG, 0, 3, 1, 0},
                                                    {"cb", RS_ARG_REG, 0, 4, 1, 0},
                                                    {"pp", RS_ARG_REG, 0, 5, 1, 0}});
  int proto2 = b.proto(i32, {{"o", b.ptr(fwd)},
                             {"buf", b.ptr(u8)},
                             {"ip", b.ptr(i32)},
                             {"arr", b.ptr(b.array(i32, 4))},
                             {"flex", b.ptr(b.array(i32, 0))}});
  expect_args(args_from_prototype(b.get(), proto2), {{"o", RS_ARG_REG, 0, 0, 1, 0},
                                                     {"buf", RS_ARG_PTR, 0, 1, 1, 1},
                                                     {"ip", RS_ARG_PTR, 0, 2, 1, 4},
                                                     {"arr", RS_ARG_PTR, 0, 3, 1, 16},
                                                     {"flex", RS_ARG_REG, 0, 4, 1, 0}});
}

TEST_F(ArgPlan, UserTagOnThePointeeReadsUserMemory) {
  int user_int = b.konst(SyntheticBtf::checked(btf__add_type_tag(b.get(), "user", i32)));
  int user_char = SyntheticBtf::checked(btf__add_type_tag(b.get(), "user", b.konst(chr)));
  int other_tag = SyntheticBtf::checked(btf__add_type_tag(b.get(), "rcu", pair));
  int proto =
      b.proto(i32, {{"up", b.ptr(user_int)}, {"us", b.ptr(user_char)}, {"rp", b.ptr(other_tag)}});
  expect_args(args_from_prototype(b.get(), proto), {{"up", RS_ARG_PTR, RS_ARG_USER, 0, 1, 4},
                                                    {"us", RS_ARG_STR, RS_ARG_USER, 1, 1, 0},
                                                    {"rp", RS_ARG_PTR, 0, 2, 1, 16}});
}

TEST_F(ArgPlan, ByValueCompositesAndWideIntegers) {
  int proto = b.proto(i32, {{"s", small}, {"t", twelve}, {"w", i128}, {"x", i32}});
  expect_args(args_from_prototype(b.get(), proto), {{"s", RS_ARG_REG, 0, 0, 1, 0},
                                                    {"t", RS_ARG_REG, 0, 1, 2, 0},
                                                    {"w", RS_ARG_REG, 0, 3, 2, 0},
                                                    {"x", RS_ARG_REG, 0, 5, 1, 0}});
}

#if defined(__x86_64__)
TEST_F(ArgPlan, LargeByValueGoesOnTheStackOnX86) {
  int proto = b.proto(i32, {{"a", i32}, {"huge", big}, {"c", i32}});
  FuncArgs plan = args_from_prototype(b.get(), proto);
  expect_args(plan, {{"a", RS_ARG_REG, 0, 0, 1, 0}, {"c", RS_ARG_REG, 0, 1, 1, 0}});
  EXPECT_EQ(plan.uncaptured, 1u);
}
#elif defined(__aarch64__)
TEST_F(ArgPlan, LargeByValueIsPassedByReferenceOnArm64) {
  int proto = b.proto(i32, {{"a", i32}, {"huge", big}, {"c", i32}});
  FuncArgs plan = args_from_prototype(b.get(), proto);
  expect_args(plan, {{"a", RS_ARG_REG, 0, 0, 1, 0},
                     {"huge", RS_ARG_PTR, 0, 1, 1, 32},
                     {"c", RS_ARG_REG, 0, 2, 1, 0}});
  EXPECT_EQ(plan.uncaptured, 0u);
}
#endif

// n parameters of type t named a0, a1, ...
int proto_of(SyntheticBtf& b, int ret, int t, uint32_t n) {
  int proto = SyntheticBtf::checked(btf__add_func_proto(b.get(), ret));
  for (uint32_t i = 0; i < n; ++i)
    SyntheticBtf::ok(btf__add_func_param(b.get(), ("a" + std::to_string(i)).c_str(), t));
  return proto;
}

TEST_F(ArgPlan, ParametersPastTheRegistersComeFromTheStack) {
  FuncArgs plan = args_from_prototype(b.get(), proto_of(b, i32, i32, 10));
  ASSERT_EQ(plan.args.size(), 10u);
  EXPECT_EQ(plan.uncaptured, 0u);
  for (uint32_t i = 0; i < 10; ++i) {
    EXPECT_EQ(plan.args[i].spec.slot, i);
    EXPECT_EQ(plan.args[i].spec.slots, 1);
  }
  EXPECT_EQ(plan.to_bpf().stack_slots, 10 - arg_register_slots());
}

TEST_F(ArgPlan, RegistersOnlyReadNoStack) {
  FuncArgs plan = args_from_prototype(b.get(), proto_of(b, i32, i32, arg_register_slots()));
  EXPECT_EQ(plan.args.size(), arg_register_slots());
  EXPECT_EQ(plan.to_bpf().stack_slots, 0u);
}

TEST_F(ArgPlan, ParametersPastTheLastSlotAreUncaptured) {
  FuncArgs plan = args_from_prototype(b.get(), proto_of(b, i32, i32, RS_MAX_ARG_SLOTS + 2));
  EXPECT_EQ(plan.args.size(), size_t{RS_MAX_ARG_SLOTS});
  EXPECT_EQ(plan.uncaptured, 2u);
  EXPECT_EQ(plan.to_bpf().stack_slots, RS_MAX_ARG_SLOTS - arg_register_slots());
}

// A pair that does not fit in the last slot still takes its stack words: what follows is unsure.
TEST_F(ArgPlan, ParametersAfterOneLeftOutOfTheStackAreUncaptured) {
  int proto = proto_of(b, i32, i32, RS_MAX_ARG_SLOTS - 1);
  SyntheticBtf::ok(btf__add_func_param(b.get(), "wide", pair));
  SyntheticBtf::ok(btf__add_func_param(b.get(), "last", i32));
  FuncArgs plan = args_from_prototype(b.get(), proto);
  EXPECT_EQ(plan.args.size(), RS_MAX_ARG_SLOTS - 1u);
  EXPECT_EQ(plan.uncaptured, 2u);
}

// A 16-byte integer on the stack starts at a 16-byte aligned word: an even slot.
TEST_F(ArgPlan, WideIntegerOnTheStackIsAligned) {
  int proto = proto_of(b, i32, i32, arg_register_slots() + 1);
  SyntheticBtf::ok(btf__add_func_param(b.get(), "w", i128));
  FuncArgs plan = args_from_prototype(b.get(), proto);
  ASSERT_EQ(plan.args.size(), arg_register_slots() + 2);
  EXPECT_EQ(plan.args.back().spec.slot, arg_register_slots() + 2);
  EXPECT_EQ(plan.args.back().spec.slots, 2);
  EXPECT_EQ(plan.to_bpf().stack_slots, 4u);
}

#if defined(__x86_64__)
// The struct's copy takes stack words of unsure count before the parameters after it.
TEST_F(ArgPlan, StackParametersAfterAStructCopiedOnTheStackAreUncaptured) {
  int proto = proto_of(b, i32, i32, 6);
  SyntheticBtf::ok(btf__add_func_param(b.get(), "huge", big));
  SyntheticBtf::ok(btf__add_func_param(b.get(), "after", i32));
  FuncArgs plan = args_from_prototype(b.get(), proto);
  EXPECT_EQ(plan.args.size(), 6u);
  EXPECT_EQ(plan.uncaptured, 2u);
}
#endif

TEST_F(ArgPlan, APairThatDoesNotFitStopsTheCapture) {
  std::vector<std::pair<const char*, int>> params;
  const char* names[] = {"a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7"};
  for (uint32_t i = 0; i + 1 < arg_register_slots(); ++i) params.push_back({names[i], i32});
  int proto = SyntheticBtf::checked(btf__add_func_proto(b.get(), i32));
  for (auto [n, t] : params) SyntheticBtf::ok(btf__add_func_param(b.get(), n, t));
  SyntheticBtf::ok(btf__add_func_param(b.get(), "wide", pair));
  SyntheticBtf::ok(btf__add_func_param(b.get(), "last", i32));
  FuncArgs plan = args_from_prototype(b.get(), proto);
  EXPECT_EQ(plan.args.size(), arg_register_slots() - 1);
  EXPECT_EQ(plan.uncaptured, 2u);
}

TEST_F(ArgPlan, VariadicAndUnnamedParameters) {
  int fmt = b.ptr(b.konst(chr));
  int proto = b.proto(i32, {{nullptr, i32}, {"fmt", fmt}, {nullptr, 0}});
  FuncArgs plan = args_from_prototype(b.get(), proto);
  expect_args(plan, {{"arg0", RS_ARG_REG, 0, 0, 1, 0}, {"fmt", RS_ARG_STR, 0, 1, 1, 0}});
  EXPECT_TRUE(plan.variadic);
  EXPECT_EQ(plan.uncaptured, 0u);
}

TEST_F(ArgPlan, NotAPrototypeFallsBackToRawSlots) {
  FuncArgs plan = args_from_prototype(b.get(), i32);
  EXPECT_EQ(plan.raw_reason, "no BTF prototype");
  EXPECT_EQ(plan.btf, nullptr);
  EXPECT_EQ(plan.args.size(), arg_register_slots());
  EXPECT_EQ(args_from_prototype(nullptr, 1).raw_reason, "no BTF prototype");
  EXPECT_EQ(args_from_prototype(b.get(), 100000).raw_reason, "no BTF prototype");
}

TEST(RawArgs, OneRegisterSlotPerArgument) {
  FuncArgs plan = raw_func_args("why");
  EXPECT_EQ(plan.raw_reason, "why");
  ASSERT_EQ(plan.args.size(), arg_register_slots());
  for (uint32_t i = 0; i < plan.args.size(); ++i) {
    EXPECT_EQ(plan.args[i].name, "arg" + std::to_string(i));
    EXPECT_EQ(plan.args[i].type_id, 0u);
    EXPECT_EQ(plan.args[i].spec.kind, RS_ARG_REG);
    EXPECT_EQ(plan.args[i].spec.slot, i);
    EXPECT_EQ(plan.args[i].spec.slots, 1);
  }
}

TEST(RawArgs, RegisterSlotsOfTheBuildArchitecture) {
#if defined(__aarch64__)
  EXPECT_EQ(arg_register_slots(), 8u);
#else
  EXPECT_EQ(arg_register_slots(), 6u);
#endif
}

TEST_F(ArgPlan, ToBpfCopiesTheSpecs) {
  int proto = b.proto(i32, {{"s", b.ptr(b.konst(chr))}, {"p", b.ptr(pair)}});
  rs_func_args bpf = args_from_prototype(b.get(), proto).to_bpf();
  EXPECT_EQ(bpf.cnt, 2u);
  EXPECT_EQ(bpf.args[0].kind, RS_ARG_STR);
  EXPECT_EQ(bpf.args[1].kind, RS_ARG_PTR);
  EXPECT_EQ(bpf.args[1].slot, 1);
  EXPECT_EQ(bpf.args[1].size, 16u);
  EXPECT_EQ(bpf.args[2].kind, 0);
}

}  // namespace
}  // namespace retsnoop
