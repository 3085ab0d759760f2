#include "discovery/never_failing_entries.h"

#include <gtest/gtest.h>

namespace retsnoop {
namespace {

using Lines = std::vector<std::string>;

FuncInfo entry(const char* name, RetKind ret, const char* module = "") {
  return {.name = name, .module = module, .ret = ret, .is_entry = true};
}

std::string warning(const std::string& name, const std::string& kind) {
  return "entry function '" + name + "' returns " + kind +
         ", which never counts as a failure: its sessions are reported only with -S\n";
}

TEST(NeverFailingEntries, EveryKindThatCannotFail) {
  FuncTable funcs = {entry("a", RetKind::Void), entry("b", RetKind::Bool),
                     entry("c", RetKind::Unsigned), entry("d", RetKind::Int8),
                     entry("e", RetKind::Int16)};
  EXPECT_EQ(never_failing_entry_warnings(funcs),
            (Lines{warning("a", "void"), warning("b", "bool"), warning("c", "unsigned"),
                   warning("d", "s8"), warning("e", "s16")}));
}

TEST(NeverFailingEntries, KindsThatCanFailAreFine) {
  FuncTable funcs = {entry("a", RetKind::Int32), entry("b", RetKind::Int64),
                     entry("c", RetKind::Ptr)};
  EXPECT_TRUE(never_failing_entry_warnings(funcs).empty());
}

TEST(NeverFailingEntries, OnlyEntriesAndOncePerFunction) {
  FuncInfo allowed = entry("helper", RetKind::Void);
  allowed.is_entry = false;
  // A static function found at two addresses is one function; a module's namesake is another.
  FuncTable funcs = {entry("dup", RetKind::Bool), allowed, entry("dup", RetKind::Bool),
                     entry("dup", RetKind::Bool, "kvm")};
  EXPECT_EQ(never_failing_entry_warnings(funcs),
            (Lines{warning("dup", "bool"), warning("dup [kvm]", "bool")}));
}

}  // namespace
}  // namespace retsnoop
