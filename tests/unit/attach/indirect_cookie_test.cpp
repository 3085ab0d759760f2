#include "attach/indirect_probes.h"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace retsnoop
