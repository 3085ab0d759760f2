#include "discovery/callee_finder.h"

#include "discovery/callee_expansion.h"
#include "discovery/indirect_sites.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace retsnoop {
namespace {

constexpr uint64_t kBase = 0xffffffff81000000;

// Kernel memory holding one range of bytes.
class BytesText : public KernelText {
 public:
  BytesText(uint64_t addr, std::vector<uint8_t> bytes) : addr_(addr), bytes_(std::move(bytes)) {}
  std::optional<std::vector<uint8_t>> read(uint64_t addr, size_t len) const override {
    if (addr < addr_ || addr - addr_ + len > bytes_.size()) return std::nullopt;
    auto first = bytes_.begin() + long(addr - addr_);
    return std::vector<uint8_t>(first, first + long(len));
  }
  const std::string& source() const override { return source_; }

 private:
  uint64_t addr_;
  std::vector<uint8_t> bytes_;
  std::string source_ = "bytes";
};

const char kSymbols[] =
    "ffffffff81000000 T caller\n"
    "ffffffff81000040 T helper\n"
    "ffffffff81000080 T __x86_indirect_thunk_rax\n"
    "ffffffff810000c0 T __fentry__\n"
    "ffffffff81000100 T other\n"
    "ffffffff81000200 T last\n";

// caller: call __fentry__; call helper; call __x86_indirect_thunk_rax; jmp other+0x10;
// je other; int3 up to helper.
std::vector<uint8_t> caller_code() {
  std::vector<uint8_t> code = {
      0xe8, 0xbb, 0x00, 0x00, 0x00,        // call __fentry__
      0xe8, 0x36, 0x00, 0x00, 0x00,        // call helper
      0xe8, 0x71, 0x00, 0x00, 0x00,        // call __x86_indirect_thunk_rax
      0xe9, 0xfc, 0x00, 0x00, 0x00,        // jmp other+0x10
      0x0f, 0x84, 0xe6, 0x00, 0x00, 0x00,  // je other
  };
  code.resize(0x40, 0xcc);
  return code;
}

TEST(CalleeFinder, KeepsFunctionStartsAndSkipsPatchedSites) {
  Kallsyms ks = Kallsyms::parse_text(kSymbols);
  BytesText text(kBase, caller_code());
  CalleeFinder finder(ks, text, CodeArch::X86_64);
  std::optional<std::vector<FoundCallee>> found = finder.callees(*ks.find_by_name("caller")[0]);
  ASSERT_TRUE(found);
  ASSERT_EQ(found->size(), 2u);
  EXPECT_EQ((*found)[0].sym->name(), "helper");
  EXPECT_EQ((*found)[0].kind, BranchKind::Call);
  EXPECT_EQ((*found)[1].sym->name(), "other");
  EXPECT_EQ((*found)[1].kind, BranchKind::TailJump);
}

TEST(CalleeFinder, IndirectSitesOfTheWalkedFunctionsWithinTheBudget) {
  Kallsyms ks = Kallsyms::parse_text(kSymbols);
  BytesText text(kBase, caller_code());
  CalleeFinder finder(ks, text, CodeArch::X86_64);
  std::vector<const KSym*> walked = {ks.find_by_name("caller")[0], ks.find_by_name("helper")[0]};
  IndirectSitePlan plan = find_indirect_sites(walked, finder, 1);
  // The call to __x86_indirect_thunk_rax; helper, whose text cannot be read, is passed over.
  ASSERT_EQ(plan.sites.size(), 1u);
  EXPECT_EQ(plan.sites[0].caller, "caller");
  EXPECT_EQ(plan.sites[0].site.addr - plan.sites[0].caller_addr, 10u);
  EXPECT_EQ(plan.sites[0].site.reg, 10);  // ax in struct pt_regs
  EXPECT_EQ(find_indirect_sites(walked, finder, 0).left_out, 1u);
}

TEST(CalleeFinder, UnreadableTextIsNoAnswer) {
  Kallsyms ks = Kallsyms::parse_text(kSymbols);
  BytesText text(kBase, caller_code());
  CalleeFinder finder(ks, text, CodeArch::X86_64);
  EXPECT_FALSE(finder.callees(*ks.find_by_name("other")[0]));
  EXPECT_FALSE(finder.callees(*ks.find_by_name("last")[0]));  // no size: nothing follows it
}

TEST(CalleeFinder, PatchedSiteTargets) {
  for (const char* name : {"__fentry__", "__x86_indirect_thunk_r11", "__x86_return_thunk",
                           "__x86_indirect_call_thunk_rax", "__SCT__might_resched", "_mcount"})
    EXPECT_TRUE(is_patched_site_target(name)) << name;
  for (const char* name : {"map_create", "fentry_helper", "kmalloc_trace"})
    EXPECT_FALSE(is_patched_site_target(name)) << name;
}

// a calls b, b calls c, c calls d: each "call the next function", then int3 up to it.
const char kChainSymbols[] =
    "ffffffff81000000 T a\n"
    "ffffffff81000040 T b\n"
    "ffffffff81000080 T c\n"
    "ffffffff810000c0 T d\n"
    "ffffffff81000100 T end\n";

std::vector<uint8_t> chain_code() {
  std::vector<uint8_t> code;
  for (int f = 0; f < 4; ++f) {
    std::vector<uint8_t> fn = {0xe8, 0x3b, 0x00, 0x00, 0x00};
    fn.resize(0x40, 0xcc);
    code.insert(code.end(), fn.begin(), fn.end());
  }
  return code;
}

class CalleeExpansion : public ::testing::Test {
 protected:
  // Walks from a to depth, with the candidates named in denied removed, adding at most max.
  std::vector<std::string> walk(uint8_t depth, std::vector<uint8_t> denied, size_t max) {
    std::vector<uint8_t> roots = {depth, 0, 0, 0};
    std::vector<bool> selected = {true, false, false, false};
    CalleeWalk w{cands, roots, denied, max};
    std::vector<std::string> names;
    for (size_t i : expand_callees(w, ks, finder, selected, report))
      names.emplace_back(cands[i].name);
    return names;
  }

  Kallsyms ks = Kallsyms::parse_text(kChainSymbols);
  BytesText text{kBase, chain_code()};
  CalleeFinder finder{ks, text, CodeArch::X86_64};
  std::vector<Candidate> cands = {{"", "a", 1}, {"", "b", 1}, {"", "c", 1}, {"", "d", 1}};
  CalleeReport report;
};

TEST_F(CalleeExpansion, FollowsCalleesToTheDepthAsked) {
  EXPECT_EQ(walk(1, {0, 0, 0, 0}, 100), (std::vector<std::string>{"b"}));
  EXPECT_EQ(walk(3, {0, 0, 0, 0}, 100), (std::vector<std::string>{"b", "c", "d"}));
  ASSERT_GE(report.edges.size(), 3u);
  EXPECT_EQ(report.edges.back().caller, "c");
  EXPECT_EQ(report.edges.back().callee, "d");
  EXPECT_EQ(report.edges.back().kind, BranchKind::Call);
}

TEST_F(CalleeExpansion, DeniedCalleesAreNeitherAddedNorFollowed) {
  EXPECT_EQ(walk(3, {0, 0, 1, 0}, 100), (std::vector<std::string>{"b"}));
}

TEST_F(CalleeExpansion, TheBudgetLeavesTheRestOut) {
  EXPECT_EQ(walk(3, {0, 0, 0, 0}, 1), (std::vector<std::string>{"b"}));
  EXPECT_EQ(report.left_out, 1u);
}

}  // namespace
}  // namespace retsnoop
