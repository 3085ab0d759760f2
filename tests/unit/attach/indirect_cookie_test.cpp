#include "attach/indirect_probes.h"

#include <gtest/gtest.h>

#include <vector>

#include "attach/imm_mark.h"
#include "bpf/abi.h"

namespace retsnoop {
namespace {

// What user space packs, the BPF program unpacks with the same macros.
TEST(IndirectCookie, RoundTripsThroughTheBpfMacros) {
  IndirectSite s{.addr = 0x1000, .reg = 14, .mem = true, .disp = -0x18};
  uint64_t c = indirect_cookie(s, 513);
  EXPECT_EQ(RS_INDIRECT_REG(c), 14u);
  EXPECT_EQ(RS_INDIRECT_MEM(c), 1u);
  EXPECT_EQ(RS_INDIRECT_SITE(c), 513u);
  EXPECT_EQ(RS_INDIRECT_DISP(c), -0x18);
}

// Without cookies the same value reaches the program as the constant its copy loads in place of
// RS_INDIRECT_MARK.
TEST(IndirectCookie, TravelsWholeAsAProgramCopysMark) {
  IndirectSite s{.addr = 0x1000, .reg = 3, .mem = true, .disp = -0x7fffffff};
  std::vector<bpf_insn> tmpl = {
      {BPF_LD | BPF_IMM | BPF_DW, 1, 0, 0, int32_t(uint32_t(RS_INDIRECT_MARK))},
      {0, 0, 0, 0, int32_t(uint32_t(RS_INDIRECT_MARK >> 32))},
      {BPF_JMP | BPF_EXIT, 0, 0, 0, 0}};
  std::vector<bpf_insn> copy =
      with_mark_replaced(tmpl, RS_INDIRECT_MARK, indirect_cookie(s, 65535));
  uint64_t c = uint64_t(uint32_t(copy[0].imm)) | uint64_t(uint32_t(copy[1].imm)) << 32;
  EXPECT_EQ(RS_INDIRECT_REG(c), 3u);
  EXPECT_EQ(RS_INDIRECT_MEM(c), 1u);
  EXPECT_EQ(RS_INDIRECT_SITE(c), 65535u);
  EXPECT_EQ(RS_INDIRECT_DISP(c), -0x7fffffff);
}

TEST(IndirectCookie, TheProbedLineSaysHowSitesAttach) {
  EXPECT_EQ(indirect_probed_line(5, 1, true),
            "--callees: 5 indirect call sites probed, 1 refused by the kernel\n");
  EXPECT_EQ(indirect_probed_line(4, 0, false),
            "--callees: 4 indirect call sites probed (one program per site), 0 refused by the "
            "kernel\n");
}

}  // namespace
}  // namespace retsnoop
