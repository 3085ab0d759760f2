#include "discovery/indirect_sites.h"

#include <gtest/gtest.h>

#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "discovery/indirect_targets.h"

namespace retsnoop {

void PrintTo(const IndirectSite& s, std::ostream* os) {
  *os << std::hex << "0x" << s.addr << " slot " << std::dec << int(s.reg) << (s.mem ? " mem " : " ")
      << s.disp;
}

namespace {

// Thunks and a plain function, by address, as kallsyms would name them.
const std::map<uint64_t, std::string> kSiteSymbols = {
    {0x2000, "__x86_indirect_thunk_r11"},
    {0x3000, "helper"},
    {0x4000, "__x86_indirect_jump_thunk_rdi"},
};

std::string_view symbol_at(uint64_t addr) {
  auto it = kSiteSymbols.find(addr);
  return it == kSiteSymbols.end() ? std::string_view() : std::string_view(it->second);
}

TEST(IndirectSites, X86RegistersMemoryAndThunks) {
  const std::vector<uint8_t> code = {
      0xff, 0xd0,                          // 0x1000 call *%rax
      0x41, 0xff, 0xe3,                    // 0x1002 jmp *%r11
      0xff, 0x53, 0x10,                    // 0x1005 call *0x10(%rbx)
      0xe8, 0xf3, 0x0f, 0x00, 0x00,        // 0x1008 call __x86_indirect_thunk_r11
      0xe8, 0xee, 0x1f, 0x00, 0x00,        // 0x100d call helper: direct
      0xff, 0x15, 0x08, 0x00, 0x00, 0x00,  // 0x1012 call *0x8(%rip): not probed
      0xe9, 0xe3, 0x2f, 0x00, 0x00,        // 0x1018 jmp __x86_indirect_jump_thunk_rdi
      0x0f, 0xae, 0xe8,                    // 0x101d lfence
      0xff, 0xd1,                          // 0x1020 call *%rcx
  };
  BranchDecoder dec(CodeArch::X86_64);
  SiteDecode d = decode_indirect_sites(dec, code, 0x1000, symbol_at);
  // Slots of struct pt_regs: bx 5, r11 6, ax 10, cx 11, di 14.
  EXPECT_EQ(d.sites, (std::vector<IndirectSite>{{0x1000, 10, false, 0},
                                                {0x1002, 6, false, 0},
                                                {0x1005, 5, true, 0x10},
                                                {0x1008, 6, false, 0},
                                                {0x1018, 14, false, 0},
                                                {0x1020, 11, false, 0}}));
  EXPECT_EQ(d.unsupported, 1u);
}

TEST(IndirectSites, Arm64BlrAndBr) {
  const std::vector<uint8_t> code = {
      0x00, 0x01, 0x3f, 0xd6,  // 0x10000 blr x8
      0x00, 0x04, 0x00, 0x94,  // 0x10004 bl: direct
      0x00, 0x02, 0x1f, 0xd6,  // 0x10008 br x16
      0xc0, 0x03, 0x5f, 0xd6,  // 0x1000c ret
  };
  BranchDecoder dec(CodeArch::Arm64);
  SiteDecode d = decode_indirect_sites(dec, code, 0x10000, symbol_at);
  EXPECT_EQ(d.sites, (std::vector<IndirectSite>{{0x10000, 8, false, 0}, {0x10008, 16, false, 0}}));
  EXPECT_EQ(d.unsupported, 0u);
}

TEST(IndirectTargets, NamesFunctionStartsThatMayBeTraced) {
  Kallsyms ks = Kallsyms::parse_text(
      "ffffffff81000000 T map_create\n"
      "ffffffff81000100 T array_map_alloc_check\n"
      "ffffffff81000200 T denied_fn\n"
      "ffffffff81000300 T end\n");
  IndirectSitePlan plan;
  plan.sites = {{"map_create", 0xffffffff81000000, {0xffffffff81000042, 10, false, 0}}};
  plan.eligible = {"map_create", "array_map_alloc_check"};
  std::vector<SeenTarget> seen = {{0, 0xffffffff81000100, 3},
                                  {0, 0xffffffff81000200, 1},   // not eligible
                                  {0, 0xffffffff81000104, 1}};  // not a function start
  IndirectTargets t = resolve_indirect_targets(plan, seen, ks);
  ASSERT_EQ(t.targets.size(), 1u);
  EXPECT_EQ(t.unnamed, 2u);
  EXPECT_EQ(t.targets[0].edge.kind, BranchKind::Indirect);
  EXPECT_EQ(render_indirect_targets(t),
            "callees: indirect targets seen at run time: map_create+0x42 -> "
            "array_map_alloc_check (3 times)\n"
            "Callees seen at run time: 1\n"
            "  map_create -> array_map_alloc_check (indirect, seen at run time)\n");
}

}  // namespace
}  // namespace retsnoop
