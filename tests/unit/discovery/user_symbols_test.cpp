#include "discovery/user_symbols.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "discovery/user_plan.h"
#include "temp_dir.h"
#include "util/error.h"

namespace retsnoop {
namespace {

std::string error_of(const std::string& path) {
  try {
    read_user_symbols(path);
  } catch (const UserError& e) {
    return e.what();
  }
  return "";
}

// This test program is an ELF executable of the host's architecture with a symbol table.
TEST(UserSymbols, ReadsTheFunctionsOfAnExecutable) {
  std::vector<UserSymbol> syms = read_user_symbols("/proc/self/exe");
  auto it = std::find_if(syms.begin(), syms.end(), [](const UserSymbol& s) {
    return s.name.find("read_user_symbols") != std::string::npos;
  });
  ASSERT_NE(it, syms.end());
  EXPECT_GT(it->size, 0u);
  EXPECT_GT(it->offset, 0u);
  for (const UserSymbol& s : syms) {
    EXPECT_EQ(s.name.find('@'), std::string::npos) << s.name;
    EXPECT_GT(s.size, 0u) << s.name;
  }
  EXPECT_TRUE(std::is_sorted(syms.begin(), syms.end(),
                             [](const auto& a, const auto& b) { return a.offset < b.offset; }));
}

// An IFUNC symbol is its resolver's address, not the function the caller gets; a symbol without
// a size covers nothing certain; versioned names are the function's name; PLT stubs have none.
TEST(UserSymbols, LeavesOutIfuncsAndSizelessSymbolsAndStripsVersions) {
  std::string path = std::string(RS_TEST_BINARY_DIR) + "/fixtures/user_elf/libuser_symbols.so";
  std::multiset<std::string> names;
  uint64_t ver_old = 0;
  for (const UserSymbol& s : read_user_symbols(path)) {
    names.insert(s.name);
    if (s.name == "ver_old") ver_old = s.offset;
  }
  EXPECT_EQ(names.count("plain_fn"), 1u);
  EXPECT_EQ(names.count("calls_out"), 1u);
  EXPECT_EQ(names.count("picked"), 0u);
  EXPECT_EQ(names.count("no_size"), 0u);
  EXPECT_EQ(names.count("ver"), 2u);  // ver@V1 and ver@@V2, at ver_old and ver_new
  for (const std::string& n : names) {
    EXPECT_EQ(n.find('@'), std::string::npos) << n;
    EXPECT_EQ(n.find("plt"), std::string::npos) << n;
  }
  bool old_alias = false;
  for (const UserSymbol& s : read_user_symbols(path))
    old_alias |= s.name == "ver" && s.offset == ver_old;
  EXPECT_TRUE(old_alias);
}

TEST(UserSymbols, RefusesWhatIsNotAnElfFile) {
  test::TempDir dir;
  std::string text = dir.write("text", "#!/bin/sh\n");
  EXPECT_EQ(error_of(text), "cannot trace functions of '" + text + "': not an ELF file");
  EXPECT_EQ(error_of(dir.path()).rfind("cannot trace functions of '" + dir.path() + "': ", 0), 0u);
  EXPECT_NE(error_of(dir.path() + "/missing"), "");
}

TEST(UserPlan, EntryGlobMatchingNothingIsAnError) {
  UserGlobs globs;
  globs.entry.push_back(
      {GlobKind::User, "no_such_function_*", {}, "/proc/self/exe:no_such_function_*"});
  globs.entry.back().binary = "/proc/self/exe";
  try {
    plan_user_functions(globs, {});
    FAIL() << "no error";
  } catch (const UserError& e) {
    EXPECT_STREQ(e.what(),
                 "entry glob '/proc/self/exe:no_such_function_*' matches no function in "
                 "'/proc/self/exe'");
  }
}

TEST(UserPlan, SelectsEntryAndAllowedFunctionsButNotDenied) {
  auto glob = [](const std::string& pattern) {
    GlobSpec g{GlobKind::User, pattern, {}, "/proc/self/exe:" + pattern};
    g.binary = "/proc/self/exe";
    return g;
  };
  UserGlobs globs;
  globs.entry.push_back(glob("*read_user_symbols*"));
  globs.allow.push_back(glob("*plan_user_functions*"));
  globs.deny.push_back(glob("*plan_user_functions*"));
  FuncTable funcs = plan_user_functions(globs, {.ret = RetKind::Int32});
  ASSERT_FALSE(funcs.empty());
  for (const FuncInfo& f : funcs) {
    EXPECT_TRUE(f.is_user());
    EXPECT_TRUE(f.is_entry) << f.name;
    EXPECT_EQ(f.ret, RetKind::Int32);
    EXPECT_EQ(f.binary, "/proc/self/exe");
  }
}

// Debug information that knows one function's type: the others keep the errno convention.
class OneKnownKind : public UserDebugInfo {
 public:
  std::optional<RetKind> ret_kind(const std::string& path, uint64_t off) override {
    ++asked;
    if (path != "/proc/self/exe" || known_off == 0 || off != known_off) return std::nullopt;
    return RetKind::Neg32;
  }
  std::optional<FuncArgs> func_args(const std::string&, uint64_t) override { return std::nullopt; }
  uint64_t known_off = 0;
  int asked = 0;
};

TEST(UserPlan, DebugInformationDecidesUnlessUserRetvalIsSet) {
  GlobSpec g{GlobKind::User, "*plan_user_functions*", {}, "/proc/self/exe:*plan_user_functions*"};
  g.binary = "/proc/self/exe";
  UserGlobs globs;
  globs.entry.push_back(g);
  globs.entry.push_back(g);
  globs.entry.back().pattern = "*read_user_symbols*";
  OneKnownKind kinds;
  FuncTable first = plan_user_functions(globs, {.debug_info = &kinds});
  ASSERT_GE(first.size(), 2u);
  kinds.known_off = first.front().file_offset;
  FuncTable funcs = plan_user_functions(globs, {.debug_info = &kinds});
  EXPECT_EQ(funcs.front().ret, RetKind::Neg32);
  EXPECT_EQ(funcs.back().ret, RetKind::Int64);
  int asked = kinds.asked;
  funcs = plan_user_functions(globs, {.ret = RetKind::Ptr, .debug_info = &kinds});
  EXPECT_EQ(kinds.asked, asked);
  for (const FuncInfo& f : funcs) EXPECT_EQ(f.ret, RetKind::Ptr) << f.name;
}

TEST(UserPlan, UnresolvedLibraryIsAnError) {
  GlobSpec g{GlobKind::User, "f", {}, "libnone.so.7:f"};
  g.binary = "libnone.so.7";
  LibraryLookup lookup{.cache_path = "/nonexistent", .dirs = {}};
  try {
    user_binary_path(g, lookup);
    FAIL() << "no error";
  } catch (const UserError& e) {
    EXPECT_STREQ(e.what(),
                 "glob 'libnone.so.7:f': library 'libnone.so.7' is in neither the loader's cache "
                 "nor its standard directories");
  }
}

}  // namespace
}  // namespace retsnoop
