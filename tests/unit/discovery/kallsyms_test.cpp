#include "discovery/kallsyms.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "discovery/fixtures_dir.h"
#include "util/error.h"

namespace retsnoop {
namespace {

class KallsymsFixture : public ::testing::Test {
 protected:
  Kallsyms ks = Kallsyms::load(kFixtures + "kallsyms.txt");
};

TEST_F(KallsymsFixture, KeepsOnlyFunctionSymbols) {
  for (const KSym& s : ks.symbols())
    EXPECT_TRUE(s.type() == 't' || s.type() == 'T' || s.type() == 'w' || s.type() == 'W')
        << s.name();
  EXPECT_TRUE(ks.find_by_name("some_data").empty());
  EXPECT_TRUE(ks.find_by_name("some_bss").empty());
  EXPECT_TRUE(ks.find_by_name("kvm_data").empty());
  EXPECT_TRUE(ks.find_by_name("fixed_percpu_data").empty());
  ASSERT_EQ(ks.find_by_name("weak_func").size(), 1u);
  EXPECT_EQ(ks.find_by_name("weak_func")[0]->type(), 'W');
}

TEST_F(KallsymsFixture, SortedByAddressEvenWhenListedOutOfOrder) {
  const auto& syms = ks.symbols();
  EXPECT_TRUE(std::is_sorted(syms.begin(), syms.end(),
                             [](const KSym& a, const KSym& b) { return a.addr < b.addr; }));
  // 31 lines minus 5 data symbols and a malformed line.
  EXPECT_EQ(syms.size(), 25u);
}

TEST_F(KallsymsFixture, ParsesModules) {
  auto copies = ks.find_by_name("kvm_read_guest");
  ASSERT_EQ(copies.size(), 1u);
  EXPECT_EQ(copies[0]->module(), "kvm");
  EXPECT_EQ(copies[0]->addr, 0xffffffffc0001000ull);
  auto prog = ks.find_by_name("bpf_prog_6deef7357e7b4530_sd_fw_egress");
  ASSERT_EQ(prog.size(), 1u);
  EXPECT_EQ(prog[0]->module(), "bpf");
}

// After an attach, [bpf] lists other programs and trampolines, some at addresses that held
// other symbols before; everything else stays as first read.
TEST_F(KallsymsFixture, ReloadModuleReplacesOnlyThatModule) {
  size_t before = ks.symbols().size();
  ASSERT_TRUE(ks.reload_module("bpf", kFixtures + "kallsyms_bpf_reloaded.txt"));
  EXPECT_TRUE(ks.find_by_name("bpf_prog_6deef7357e7b4530_sd_fw_egress").empty());
  const KSym* s = ks.find_by_addr(0xffffffffa0004089ull);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->name(), "bpf_trampoline_6442461877");
  EXPECT_EQ(s->module(), "bpf");
  s = ks.find_by_addr(0xffffffffa0000b48ull);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->name(), "bpf_prog_c4cd11e944f97b11_rs_fexit");
  ASSERT_EQ(ks.find_by_name("bpf_prog_0b4934ff7ab71f9b_rs_fentry").size(), 1u);
  // Data and lines of other modules or of vmlinux are not [bpf] functions.
  EXPECT_TRUE(ks.find_by_name("bpf_not_a_function").empty());
  EXPECT_TRUE(ks.find_by_name("bpf_module_lookalike").empty());
  // The old table's one [bpf] symbol gave way to three; the rest is untouched.
  EXPECT_EQ(ks.symbols().size(), before + 2);
  EXPECT_EQ(ks.find_by_name("dup_static").size(), 2u);
  EXPECT_EQ(ks.find_by_name("kvm_read_guest").size(), 1u);
  EXPECT_EQ(ks.addr_of("_etext"), 0xffffffff81003000ull);
  const auto& syms = ks.symbols();
  EXPECT_TRUE(std::is_sorted(syms.begin(), syms.end(),
                             [](const KSym& a, const KSym& b) { return a.addr < b.addr; }));
}

TEST_F(KallsymsFixture, ReloadModuleFromAMissingFileKeepsTheTable) {
  size_t before = ks.symbols().size();
  EXPECT_FALSE(ks.reload_module("bpf", "/nonexistent/kallsyms"));
  EXPECT_EQ(ks.symbols().size(), before);
  EXPECT_EQ(ks.find_by_name("bpf_prog_6deef7357e7b4530_sd_fw_egress").size(), 1u);
}

TEST_F(KallsymsFixture, FindByNameReturnsEveryCopyInAddressOrder) {
  auto dups = ks.find_by_name("dup_static");
  ASSERT_EQ(dups.size(), 2u);
  EXPECT_EQ(dups[0]->addr, 0xffffffff81001800ull);
  EXPECT_EQ(dups[1]->addr, 0xffffffff81001900ull);
  // Same name in vmlinux and in a module.
  auto mc = ks.find_by_name("map_create");
  ASSERT_EQ(mc.size(), 2u);
  EXPECT_EQ(mc[0]->module(), "");
  EXPECT_EQ(mc[1]->module(), "kvm");
  EXPECT_TRUE(ks.find_by_name("nope").empty());
}

TEST_F(KallsymsFixture, KeepsCompilerSuffixes) {
  EXPECT_EQ(ks.find_by_name("helper_fn.isra.0").size(), 1u);
  EXPECT_EQ(ks.find_by_name("helper_fn.constprop.0").size(), 1u);
  EXPECT_EQ(ks.find_by_name("array_map_alloc.cold").size(), 1u);
  EXPECT_TRUE(ks.find_by_name("helper_fn").empty());
}

TEST_F(KallsymsFixture, FindByAddrGivesTheContainingSymbol) {
  const KSym* s = ks.find_by_addr(0xffffffff81001234ull);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->name(), "map_create");
  s = ks.find_by_addr(0xffffffff81001000ull);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->name(), "__x64_sys_bpf");
  EXPECT_EQ(ks.find_by_addr(0x1000), nullptr);
}

// Without [bpf] lines (bpf_jit_kallsyms off, or a trampoline the kernel does not list), an
// address past vmlinux's last function is in no symbol: it ends at the next symbol of any type
// (vmlinux's init and exit text is followed by its data), else at most kMaxLastExtent on.
TEST(Kallsyms, TheLastFunctionOfAModuleEndsAtItsNextSymbol) {
  Kallsyms ks = Kallsyms::parse_text(
      "ffffffff81000000 T _stext\n"
      "ffffffff81000100 t exit_last\n"
      "ffffffff81000200 R __smp_locks\n"
      "ffffffffc0001000 t mod_first\t[mod]\n"
      "ffffffffc0001400 d mod_data\t[mod]\n"
      "ffffffffc0001100 t mod_last\t[mod]\n"
      "ffffffffc0400000 t bpf_prog_1_x\t[bpf]\n");
  ASSERT_NE(ks.find_by_addr(0xffffffff810001ffull), nullptr);
  EXPECT_EQ(ks.find_by_addr(0xffffffff810001ffull)->name(), "exit_last");
  EXPECT_EQ(ks.find_by_addr(0xffffffff81000200ull), nullptr);
  EXPECT_EQ(ks.find_by_addr(0xffffffffa0000000ull), nullptr);
  // Functions followed by one of their own module end there, whatever lies between.
  ASSERT_NE(ks.find_by_addr(0xffffffffc00010ffull), nullptr);
  EXPECT_EQ(ks.find_by_addr(0xffffffffc00010ffull)->name(), "mod_first");
  // Listed out of order, the module's data still ends its last function.
  ASSERT_NE(ks.find_by_addr(0xffffffffc00013ffull), nullptr);
  EXPECT_EQ(ks.find_by_addr(0xffffffffc00013ffull)->name(), "mod_last");
  EXPECT_EQ(ks.find_by_addr(0xffffffffc0001400ull), nullptr);
  // Nothing of [bpf] follows its last program: the bound is the fixed one.
  uint64_t prog = 0xffffffffc0400000ull;
  ASSERT_NE(ks.find_by_addr(prog + Kallsyms::kMaxLastExtent - 1), nullptr);
  EXPECT_EQ(ks.find_by_addr(prog + Kallsyms::kMaxLastExtent), nullptr);
}

TEST_F(KallsymsFixture, AddrOfAnchors) {
  EXPECT_EQ(ks.addr_of("_stext"), 0xffffffff81000000ull);
  EXPECT_EQ(ks.addr_of("_etext"), 0xffffffff81003000ull);
  EXPECT_EQ(ks.addr_of("__sys_bpf"), 0xffffffff81001100ull);
  EXPECT_EQ(ks.addr_of("nope"), 0u);
  EXPECT_FALSE(ks.addresses_hidden());
}

TEST(Kallsyms, ParseFromStreamMatchesParseText) {
  std::istringstream in("ffffffff81000000 T _stext\nffffffff81000010 t foo\t[mod]\n");
  Kallsyms ks = Kallsyms::parse(in);
  ASSERT_EQ(ks.symbols().size(), 2u);
  EXPECT_EQ(ks.symbols()[1].name(), "foo");
  EXPECT_EQ(ks.symbols()[1].module(), "mod");
}

// The table keeps copies of the names, not the text: the text it was given may go at once.
TEST(Kallsyms, KeepsItsOwnNamesOnly) {
  std::string text =
      "ffffffff81000000 T _stext\n"
      "ffffffff81000010 t first_func\n"
      "ffffffff81a00000 d some_data\n"
      "ffffffffc0001000 t mod_a\t[nfs]\n"
      "ffffffffc0001100 t mod_b\t[nfs]\n"
      "ffffffffc0002000 t other\t[kvm]\n";
  Kallsyms ks = Kallsyms::parse_text(std::string(text));
  std::fill(text.begin(), text.end(), 'x');
  ASSERT_EQ(ks.symbols().size(), 5u);
  EXPECT_EQ(ks.symbols()[1].name(), "first_func");
  const KSym* a = ks.find_by_name("mod_a").at(0);
  const KSym* b = ks.find_by_name("mod_b").at(0);
  EXPECT_EQ(a->module(), "nfs");
  EXPECT_EQ(b->module(), "nfs");
  EXPECT_EQ(ks.find_by_name("other").at(0)->module(), "kvm");
  EXPECT_EQ(ks.addr_of("_stext"), 0xffffffff81000000ull);
}

// Each entry is an address, a type and a view of its text, in 24 bytes: the table holds about
// 110,000 of them for the whole run.
TEST(Kallsyms, AnEntryTakes24Bytes) { static_assert(sizeof(KSym) == 24); }

// kallsyms' names are at most 512 bytes and its module names 56: longer ones are malformed.
TEST(Kallsyms, OverlongNamesAreLeftOut) {
  std::string text = "ffffffff81000000 t " + std::string(70000, 'n') + "\n" +
                     "ffffffffc0000000 t f\t[" + std::string(300, 'm') + "]\n" +
                     "ffffffffc0001000 t g\t[mod]\n";
  Kallsyms ks = Kallsyms::parse_text(text);
  ASSERT_EQ(ks.symbols().size(), 1u);
  EXPECT_EQ(ks.symbols()[0].name(), "g");
}

TEST(Kallsyms, ZeroAddressesMeanHidden) {
  std::istringstream in("0000000000000000 T _stext\n0000000000000000 t foo\n");
  EXPECT_TRUE(Kallsyms::parse(in).addresses_hidden());
  EXPECT_FALSE(Kallsyms::parse_text("").addresses_hidden());
}

TEST(Kallsyms, LoadRefusesHiddenAddressesWithAHint) {
  try {
    Kallsyms::load(kFixtures + "kallsyms_hidden.txt");
    FAIL() << "no error";
  } catch (const UserError& e) {
    EXPECT_EQ(std::string(e.what()),
              "kallsyms addresses are hidden (kernel.kptr_restrict=2 or not root)");
    EXPECT_NE(e.hint().find("sysctl kernel.kptr_restrict=1"), std::string::npos);
  }
}

TEST(Kallsyms, LoadMissingFileIsAnError) {
  EXPECT_THROW(Kallsyms::load("/nonexistent/kallsyms"), UserError);
}

// Planning needs only vmlinux text, which ends two thirds into /proc/kallsyms; the rest (data,
// modules, BPF programs) comes with load_rest().
TEST(Kallsyms, LoadTextStopsAtTheEndOfVmlinuxText) {
  Kallsyms ks = Kallsyms::load_text(kFixtures + "kallsyms.txt");
  EXPECT_FALSE(ks.complete());
  EXPECT_EQ(ks.addr_of("_etext"), 0xffffffff81003000ull);
  EXPECT_EQ(ks.find_by_name("dup_static").size(), 2u);
  EXPECT_TRUE(ks.find_by_name("kvm_read_guest").empty());
  EXPECT_TRUE(ks.find_by_name("array_map_alloc.cold").empty());
}

TEST(Kallsyms, LoadRestCompletesTheTable) {
  Kallsyms ks = Kallsyms::load_text(kFixtures + "kallsyms.txt");
  ks.load_rest();
  EXPECT_TRUE(ks.complete());
  Kallsyms full = Kallsyms::load(kFixtures + "kallsyms.txt");
  ASSERT_EQ(ks.symbols().size(), full.symbols().size());
  for (size_t i = 0; i < full.symbols().size(); ++i) {
    EXPECT_EQ(ks.symbols()[i].name(), full.symbols()[i].name());
    EXPECT_EQ(ks.symbols()[i].module(), full.symbols()[i].module());
    EXPECT_EQ(ks.symbols()[i].addr, full.symbols()[i].addr);
  }
  ks.load_rest();  // nothing left to read
  EXPECT_EQ(ks.symbols().size(), full.symbols().size());
}

TEST(Kallsyms, ReloadModuleCompletesATableFirst) {
  Kallsyms ks = Kallsyms::load_text(kFixtures + "kallsyms.txt");
  ASSERT_TRUE(ks.reload_module("bpf", kFixtures + "kallsyms_bpf_reloaded.txt"));
  EXPECT_TRUE(ks.complete());
  EXPECT_TRUE(ks.find_by_name("bpf_prog_6deef7357e7b4530_sd_fw_egress").empty());
  EXPECT_EQ(ks.find_by_name("kvm_read_guest").size(), 1u);
}

TEST(Kallsyms, LoadTextRefusesHiddenAddressesAndMissingFiles) {
  EXPECT_THROW(Kallsyms::load_text(kFixtures + "kallsyms_hidden.txt"), UserError);
  EXPECT_THROW(Kallsyms::load_text("/nonexistent/kallsyms"), UserError);
}

}  // namespace
}  // namespace retsnoop
