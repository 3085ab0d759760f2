#include "discovery/branch_decoder.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <ostream>
#include <vector>

namespace retsnoop {

void PrintTo(const Branch& b, std::ostream* os) {
  *os << std::hex << "0x" << b.target << " " << branch_kind_word(b.kind);
}

namespace {

TEST(BranchDecoder, X86CallsAndJumpsLeavingTheFunction) {
  // At 0x1000: call 0x2000; je 0x3000; jne 0x1000; call *%rax; jmp 0x4000; call 0x101d
  // (the next instruction, inside); int3.
  const std::vector<uint8_t> code = {
      0xe8, 0xfb, 0x0f, 0x00, 0x00,        // call rel32
      0x0f, 0x84, 0xf5, 0x1f, 0x00, 0x00,  // je rel32, out
      0x0f, 0x85, 0xef, 0xff, 0xff, 0xff,  // jne rel32, in
      0xff, 0xd0,                          // call *%rax
      0xe9, 0xe8, 0x2f, 0x00, 0x00,        // jmp rel32, out
      0xe8, 0x00, 0x00, 0x00, 0x00,        // call rel32, in
      0xcc,                                // int3
  };
  BranchDecoder dec(CodeArch::X86_64);
  EXPECT_EQ(dec.decode(code, 0x1000), (std::vector<Branch>{{0x2000, BranchKind::Call},
                                                           {0x3000, BranchKind::TailJump},
                                                           {0x4000, BranchKind::TailJump}}));
}

TEST(BranchDecoder, X86CallWinsOverJumpToTheSameTarget) {
  // At 0x1000: jmp 0x2000; call 0x2000.
  const std::vector<uint8_t> code = {0xe9, 0xfb, 0x0f, 0x00, 0x00, 0xe8, 0xf6, 0x0f, 0x00, 0x00};
  BranchDecoder dec(CodeArch::X86_64);
  EXPECT_EQ(dec.decode(code, 0x1000), (std::vector<Branch>{{0x2000, BranchKind::Call}}));
}

TEST(BranchDecoder, X86StepsOverBytesThatDoNotDecode) {
  // 0x06 (push %es) is invalid in 64-bit mode; the call after it is still found.
  const std::vector<uint8_t> code = {0x06, 0xe8, 0xfa, 0x0f, 0x00, 0x00};
  BranchDecoder dec(CodeArch::X86_64);
  EXPECT_EQ(dec.decode(code, 0x1000), (std::vector<Branch>{{0x2000, BranchKind::Call}}));
}

TEST(BranchDecoder, Arm64BranchesLeavingTheFunction) {
  // At 0x10000: bl 0x11000; b 0x20000; b.eq 0x10000; blr x1; b.ne 0x30000; ret.
  const std::vector<uint8_t> code = {
      0x00, 0x04, 0x00, 0x94,  // bl
      0xff, 0x3f, 0x00, 0x14,  // b, out
      0xc0, 0xff, 0xff, 0x54,  // b.eq, in
      0x20, 0x00, 0x3f, 0xd6,  // blr x1
      0x81, 0xff, 0x0f, 0x54,  // b.ne, out
      0xc0, 0x03, 0x5f, 0xd6,  // ret
  };
  BranchDecoder dec(CodeArch::Arm64);
  EXPECT_EQ(dec.decode(code, 0x10000), (std::vector<Branch>{{0x11000, BranchKind::Call},
                                                            {0x20000, BranchKind::TailJump},
                                                            {0x30000, BranchKind::TailJump}}));
}

TEST(BranchDecoder, KindWords) {
  EXPECT_EQ(branch_kind_word(BranchKind::Call), "call");
  EXPECT_EQ(branch_kind_word(BranchKind::TailJump), "tail jump");
}

}  // namespace
}  // namespace retsnoop
