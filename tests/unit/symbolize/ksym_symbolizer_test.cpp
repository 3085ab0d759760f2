#include "symbolize/ksym_symbolizer.h"

#include <gtest/gtest.h>

namespace retsnoop {
namespace {

const Kallsyms kSyms = Kallsyms::parse_text(
    "ffffffff81000000 T _stext\n"
    "ffffffff81000100 t alpha\n"
    "ffffffff81000200 T beta.isra.0\n"
    "ffffffffc0001000 t gamma\t[kvm]\n");

TEST(KsymSymbolizer, NameOffsetAndModule) {
  KsymSymbolizer sym(kSyms);
  SymbolizedAddr a = sym.symbolize(0xffffffff81000123, true);
  EXPECT_TRUE(a.found);
  EXPECT_EQ(a.name, "alpha");
  EXPECT_EQ(a.offset, 0x23u);
  EXPECT_EQ(a.module, "");
  EXPECT_FALSE(a.loc.known());
  EXPECT_TRUE(a.inlines.empty());

  SymbolizedAddr b = sym.symbolize(0xffffffff81000200, false);
  EXPECT_EQ(b.name, "beta.isra.0");
  EXPECT_EQ(b.offset, 0u);

  SymbolizedAddr g = sym.symbolize(0xffffffffc0001004, true);
  EXPECT_EQ(g.name, "gamma");
  EXPECT_EQ(g.module, "kvm");
}

TEST(KsymSymbolizer, ReturnAddressBelongsToTheCallingFunction) {
  KsymSymbolizer sym(kSyms);
  // A call that never returns, at the very end of alpha, leaves beta's start on the stack.
  SymbolizedAddr ret = sym.symbolize(0xffffffff81000200, true);
  EXPECT_EQ(ret.name, "alpha");
  EXPECT_EQ(ret.offset, 0x100u);
  SymbolizedAddr target = sym.symbolize(0xffffffff81000200, false);
  EXPECT_EQ(target.name, "beta.isra.0");
  EXPECT_EQ(target.offset, 0u);
}

TEST(KsymSymbolizer, BelowEverySymbolIsNotFound) {
  KsymSymbolizer sym(kSyms);
  EXPECT_FALSE(sym.symbolize(0x1000, true).found);
}

}  // namespace
}  // namespace retsnoop
