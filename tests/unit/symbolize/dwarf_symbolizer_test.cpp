#include "symbolize/dwarf_symbolizer.h"

#include <gtest/gtest.h>

#include "fixture_util.h"

namespace retsnoop {
namespace {

using test::fixture_image;
using test::kFakeKaslr;
using test::marker_loc;

constexpr char kMain[] = "kernel/bpf/fixture_main.c";
constexpr char kHeader[] = "include/linux/fixture_inline.h";

std::string str(const SourceLoc& loc) {
  return loc.file + ":" + std::to_string(loc.line) + ":" + std::to_string(loc.col);
}

// Runs over the DWARF 5 and DWARF 4 builds of the fixture: file indices differ between them.
class DwarfSymbolizerTest : public ::testing::TestWithParam<const char*> {
 protected:
  std::shared_ptr<Vmlinux> image_ = Vmlinux::open(fixture_image(GetParam()));
  Kallsyms ksyms_ = Kallsyms::parse_text(test::kallsyms_of(*image_, kFakeKaslr));
  uint64_t ret_addr_ = test::fixture_return_addr(GetParam()) + kFakeKaslr;

  DwarfSymbolizer make(SymbLevel detail, const Kallsyms* ksyms = nullptr) {
    return DwarfSymbolizer(ksyms ? *ksyms : ksyms_, {image_, kFakeKaslr}, detail);
  }
  uint64_t runtime_addr(const std::string& func) {
    return test::symbol_addr(*image_, func) + kFakeKaslr;
  }
};

TEST_P(DwarfSymbolizerTest, InlineChainOutermostFirstWithCallSites) {
  SymbolizedAddr s = make(SymbLevel::Inlines).symbolize(ret_addr_, true);
  ASSERT_TRUE(s.found);
  EXPECT_EQ(s.name, "outer_fn");
  EXPECT_EQ(s.offset, ret_addr_ - runtime_addr("outer_fn"));
  EXPECT_EQ(s.dwarf_name, "");
  EXPECT_EQ(s.module, "");
  // outer_fn is at its call of mid_inline, mid_inline at its call of inner_inline, and the
  // innermost frame at the address's own line: the call of leaf_fn.
  EXPECT_EQ(str(s.loc), marker_loc(kMain, "CALL_MID", "mid_inline"));
  ASSERT_EQ(s.inlines.size(), 2u);
  EXPECT_EQ(s.inlines[0].name, "mid_inline");
  EXPECT_EQ(str(s.inlines[0].loc), marker_loc(kHeader, "CALL_INNER", "inner_inline"));
  EXPECT_EQ(s.inlines[1].name, "inner_inline");
  EXPECT_EQ(str(s.inlines[1].loc), marker_loc(kHeader, "CALL_LEAF", "leaf_fn"));
}

TEST_P(DwarfSymbolizerTest, LinesLevelKeepsRealFunctionLocationOnly) {
  SymbolizedAddr s = make(SymbLevel::Lines).symbolize(ret_addr_, true);
  EXPECT_EQ(str(s.loc), marker_loc(kMain, "CALL_MID", "mid_inline"));
  EXPECT_TRUE(s.inlines.empty());
}

TEST_P(DwarfSymbolizerTest, ReturnAddressIsLookedUpAtTheCall) {
  DwarfSymbolizer sym = make(SymbLevel::Inlines);
  SymbolizedAddr as_return = sym.symbolize(ret_addr_, true);
  SymbolizedAddr as_target = sym.symbolize(ret_addr_, false);
  // Same symbol and offset either way; only the source lookup moves back onto the call.
  EXPECT_EQ(as_target.name, as_return.name);
  EXPECT_EQ(as_target.offset, as_return.offset);
  ASSERT_FALSE(as_target.inlines.empty());
  EXPECT_NE(str(as_target.inlines.back().loc), marker_loc(kHeader, "CALL_LEAF", "leaf_fn"));
}

TEST_P(DwarfSymbolizerTest, StaticFunctionAndTrimmedAbsoluteUnitPath) {
  DwarfSymbolizer sym = make(SymbLevel::Inlines);
  SymbolizedAddr helper = sym.symbolize(runtime_addr("static_helper"), false);
  EXPECT_EQ(helper.name, "static_helper");
  EXPECT_EQ(helper.offset, 0u);
  EXPECT_EQ(helper.loc.file, kMain);
  // Optimised code may start on any line of the three-line body.
  int body = test::marker_line(kMain, "STATIC_HELPER");
  EXPECT_GE(helper.loc.line, body);
  EXPECT_LE(helper.loc.line, body + 2);
  // fixture_fs.c was compiled by absolute path under the (prefix-mapped) comp_dir.
  SymbolizedAddr fs = sym.symbolize(runtime_addr("fs_static_fn") + 1, false);
  EXPECT_EQ(fs.name, "fs_static_fn");
  EXPECT_EQ(fs.loc.file, "fs/fixture_fs.c");
}

TEST_P(DwarfSymbolizerTest, DwarfNameWhenKallsymsNameDiffers) {
  std::string text = test::kallsyms_of(*image_, kFakeKaslr);
  size_t pos = text.find(" outer_fn\n");
  ASSERT_NE(pos, std::string::npos);
  text.replace(pos, 10, " outer_fn.isra.0\n");
  Kallsyms renamed = Kallsyms::parse_text(text);
  SymbolizedAddr s = make(SymbLevel::Inlines, &renamed).symbolize(ret_addr_, true);
  EXPECT_EQ(s.name, "outer_fn.isra.0");
  EXPECT_EQ(s.dwarf_name, "outer_fn");
}

TEST_P(DwarfSymbolizerTest, ModuleAndUnknownAddressesGetKallsymsOnly) {
  std::string text = test::kallsyms_of(*image_, kFakeKaslr) + "ffffffffc0001000 t mod_fn\t[kvm]\n";
  Kallsyms with_module = Kallsyms::parse_text(text);
  DwarfSymbolizer sym = make(SymbLevel::Inlines, &with_module);
  SymbolizedAddr mod = sym.symbolize(0xffffffffc0001010, true);
  EXPECT_EQ(mod.name, "mod_fn");
  EXPECT_EQ(mod.offset, 0x10u);
  EXPECT_EQ(mod.module, "kvm");
  EXPECT_FALSE(mod.loc.known());
  EXPECT_FALSE(sym.symbolize(0x1000, true).found);
}

TEST_P(DwarfSymbolizerTest, CachesPerAddressAndKind) {
  DwarfSymbolizer sym = make(SymbLevel::Inlines);
  SymbolizedAddr first = sym.symbolize(ret_addr_, true);
  EXPECT_EQ(sym.cached_addrs(), 1u);
  SymbolizedAddr again = sym.symbolize(ret_addr_, true);
  EXPECT_EQ(sym.cached_addrs(), 1u);
  EXPECT_EQ(str(again.loc), str(first.loc));
  EXPECT_EQ(again.inlines.size(), first.inlines.size());
  sym.symbolize(ret_addr_, false);
  EXPECT_EQ(sym.cached_addrs(), 2u);
}

INSTANTIATE_TEST_SUITE_P(DwarfVersions, DwarfSymbolizerTest,
                         ::testing::Values("vmlinux", "vmlinux-dwarf4"));

}  // namespace
}  // namespace retsnoop
