#include "symbolize/user_ret_kinds.h"

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
TEST(WorkerUserRetKinds, AnswersThroughTheSandboxedWorker) {
  std::string path = returns_fixture("libuser_returns.so");
  auto offs = symbol_offsets(path);
  WorkerUserRetKinds kinds("/", test::test_worker());
  EXPECT_EQ(kinds.ret_kind(path, offs.at("ret_int")), RetKind::Neg32);
  EXPECT_EQ(kinds.ret_kind(path, offs.at("ret_bool")), RetKind::False);
  EXPECT_EQ(kinds.ret_kind(path, offs.at("ret_ptr")), RetKind::Ptr);
  std::string bare = returns_fixture("libuser_returns-nodwarf.so");
  EXPECT_EQ(kinds.ret_kind(bare, symbol_offsets(bare).at("ret_int")), std::nullopt);
  EXPECT_EQ(kinds.ret_kind("/nonexistent/lib.so", 0), std::nullopt);
  EXPECT_EQ(kinds.ret_kind(returns_fixture(""), 0), std::nullopt);  // a directory
}

}  // namespace
}  // namespace retsnoop
