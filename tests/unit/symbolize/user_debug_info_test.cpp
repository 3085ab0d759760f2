#include "symbolize/user_debug_info.h"

#include <fcntl.h>
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "discovery/user_symbols.h"
#include "symbolize/elf_file.h"
#include "worker_test_util.h"

namespace retsnoop {
namespace {

std::string returns_fixture(const std::string& name) {
  return std::string(RS_TEST_BINARY_DIR) + "/fixtures/user_elf/" + name;
}

std::map<std::string, uint64_t> symbol_offsets(const std::string& path) {
  std::map<std::string, uint64_t> out;
  for (const UserSymbol& s : read_user_symbols(path)) out[s.name] = s.offset;
  return out;
}

const std::map<std::string, RetKind>& expected_kinds() {
  static const std::map<std::string, RetKind> kinds = {
      {"ret_int", RetKind::Neg32},           {"ret_long", RetKind::Neg64},
      {"ret_short", RetKind::Neg16},         {"ret_schar", RetKind::Neg8},
      {"ret_bool", RetKind::False},          {"ret_ptr", RetKind::Ptr},
      {"ret_const_ptr", RetKind::Ptr},       {"ret_void", RetKind::Void},
      {"ret_uint", RetKind::Unsigned},       {"ret_u64", RetKind::Unsigned},
      {"ret_double", RetKind::Unsigned},     {"ret_struct", RetKind::Unsigned},
      {"ret_typedef_const", RetKind::Neg32}, {"ret_enum", RetKind::Unsigned},
  };
  return kinds;
}

TEST(DwarfRetKind, EachReturnTypeGetsCsFailureRule) {
  std::string path = returns_fixture("libuser_returns.so");
  auto offs = symbol_offsets(path);
  ElfFile elf(OwnedFd(open(path.c_str(), O_RDONLY | O_CLOEXEC)), {});
  for (const auto& [name, kind] : expected_kinds()) {
    ASSERT_TRUE(offs.count(name)) << name;
    EXPECT_EQ(elf.ret_kind(offs[name]), kind) << name;
  }
}

TEST(DwarfRetKind, NoneWithoutDwarfOrOutsideFunctions) {
  std::string path = returns_fixture("libuser_returns-nodwarf.so");
  auto offs = symbol_offsets(path);
  ElfFile elf(OwnedFd(open(path.c_str(), O_RDONLY | O_CLOEXEC)), {});
  EXPECT_EQ(elf.ret_kind(offs.at("ret_int")), std::nullopt);
  ElfFile with(OwnedFd(open(returns_fixture("libuser_returns.so").c_str(), O_RDONLY | O_CLOEXEC)),
               {});
  EXPECT_EQ(with.ret_kind(uint64_t(1) << 40), std::nullopt);
}

// The worker answers as the file read in process does; a file it cannot open has no kinds.
TEST(WorkerUserDebugInfo, AnswersThroughTheSandboxedWorker) {
  std::string path = returns_fixture("libuser_returns.so");
  auto offs = symbol_offsets(path);
  WorkerUserDebugInfo kinds("/", test::test_worker());
  EXPECT_EQ(kinds.ret_kind(path, offs.at("ret_int")), RetKind::Neg32);
  EXPECT_EQ(kinds.ret_kind(path, offs.at("ret_bool")), RetKind::False);
  EXPECT_EQ(kinds.ret_kind(path, offs.at("ret_ptr")), RetKind::Ptr);
  std::string bare = returns_fixture("libuser_returns-nodwarf.so");
  EXPECT_EQ(kinds.ret_kind(bare, symbol_offsets(bare).at("ret_int")), std::nullopt);
  EXPECT_EQ(kinds.ret_kind("/nonexistent/lib.so", 0), std::nullopt);
  EXPECT_EQ(kinds.ret_kind(returns_fixture(""), 0), std::nullopt);  // a directory
}

// The prototype comes back as BTF the -A planner reads: names, strings and sized pointees, each
// pointer read from user memory.
TEST(WorkerUserDebugInfo, PrototypeAsBtf) {
  std::string path = returns_fixture("libuser_returns.so");
  auto offs = symbol_offsets(path);
  WorkerUserDebugInfo info("/", test::test_worker());
  std::optional<FuncArgs> args = info.func_args(path, offs.at("takes_args"));
  ASSERT_TRUE(args);
  ASSERT_TRUE(args->btf_owner);
  EXPECT_EQ(args->btf, args->btf_owner.get());
  ASSERT_EQ(args->args.size(), 5u);
  const char* names[] = {"a", "s", "p", "n", "count"};
  for (size_t i = 0; i < 5; ++i) EXPECT_EQ(args->args[i].name, names[i]);
  EXPECT_EQ(args->args[0].spec.kind, RS_ARG_REG);
  EXPECT_EQ(args->args[1].spec.kind, RS_ARG_STR);
  EXPECT_EQ(args->args[1].spec.flags & RS_ARG_USER, RS_ARG_USER);
  EXPECT_EQ(args->args[2].spec.kind, RS_ARG_PTR);
  EXPECT_EQ(args->args[2].spec.size, 8u);  // struct pair
  EXPECT_EQ(args->args[3].spec.kind, RS_ARG_PTR);
  EXPECT_EQ(args->args[3].spec.size, 16u);  // struct node, through its own next pointer
  EXPECT_EQ(args->args[3].spec.flags & RS_ARG_USER, RS_ARG_USER);
  std::optional<FuncArgs> var = info.func_args(path, offs.at("takes_varargs"));
  ASSERT_TRUE(var);
  EXPECT_TRUE(var->variadic);
  std::string bare = returns_fixture("libuser_returns-nodwarf.so");
  EXPECT_FALSE(info.func_args(bare, symbol_offsets(bare).at("takes_args")));
}

}  // namespace
}  // namespace retsnoop
