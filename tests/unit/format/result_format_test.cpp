#include "format/result_format.h"

#include <gtest/gtest.h>

#include <cstdint>

namespace retsnoop {
namespace {

constexpr int64_t k64(uint64_t v) { return static_cast<int64_t>(v); }

TEST(ResultFormat, VoidNeverFails) {
  EXPECT_EQ(format_result(0, RetKind::Void), "[void]");
  EXPECT_EQ(format_result(-12, RetKind::Void), "[void]");
}

TEST(ResultFormat, BoolLooksAtTheLowByteOnly) {
  EXPECT_EQ(format_result(1, RetKind::Bool), "[true]");
  EXPECT_EQ(format_result(0, RetKind::Bool), "[false]");
  EXPECT_EQ(format_result(0xdead0000ff00, RetKind::Bool), "[false]");
  EXPECT_EQ(format_result(0xdead00000001, RetKind::Bool), "[true]");
}

TEST(ResultFormat, NarrowSignedIsSignExtendedFromItsOwnWidth) {
  // Only the low 8/16 bits are defined by the ABI; garbage above them must not show.
  EXPECT_EQ(format_result(0xabcdff, RetKind::Int8), "[-1]");
  EXPECT_EQ(format_result(0x7f, RetKind::Int8), "[127]");
  EXPECT_EQ(format_result(0x1fff0, RetKind::Int16), "[-16]");
  EXPECT_EQ(format_result(300, RetKind::Int16), "[300]");
}

TEST(ResultFormat, UnsignedIsDecimalUpTo32BitsThenHex) {
  EXPECT_EQ(format_result(0, RetKind::Unsigned), "[0]");
  EXPECT_EQ(format_result(42, RetKind::Unsigned), "[42]");
  EXPECT_EQ(format_result(0xffffffff, RetKind::Unsigned), "[4294967295]");
  EXPECT_EQ(format_result(0x100000000, RetKind::Unsigned), "[0x100000000]");
  EXPECT_EQ(format_result(-12, RetKind::Unsigned), "[0xfffffffffffffff4]");
}

TEST(ResultFormat, Int32UsesTheSignExtendedLow32Bits) {
  EXPECT_EQ(format_result(0, RetKind::Int32), "[0]");
  EXPECT_EQ(format_result(5, RetKind::Int32), "[5]");
  EXPECT_EQ(format_result(-12, RetKind::Int32), "[-ENOMEM]");
  EXPECT_EQ(format_result(0xfffffff4, RetKind::Int32), "[-ENOMEM]");
  EXPECT_EQ(format_result(0x12345678ffffffea, RetKind::Int32), "[-EINVAL]");
  EXPECT_EQ(format_result(-512, RetKind::Int32), "[-ERESTARTSYS]");
  EXPECT_EQ(format_result(0x80000000, RetKind::Int32), "[-2147483648]");
  EXPECT_EQ(format_result(0x1ffffffff, RetKind::Int32), "[-EPERM]");
}

TEST(ResultFormat, UnnamedErrnosAndOtherNegativesAreDecimal) {
  EXPECT_EQ(format_result(-4000, RetKind::Int32), "[-4000]");
  EXPECT_EQ(format_result(-4095, RetKind::Int64), "[-4095]");
  EXPECT_EQ(format_result(-4096, RetKind::Int32), "[-4096]");
  EXPECT_EQ(format_result(-5000, RetKind::Int64), "[-5000]");
}

TEST(ResultFormat, Int64UsesTheFullValue) {
  EXPECT_EQ(format_result(-22, RetKind::Int64), "[-EINVAL]");
  EXPECT_EQ(format_result(0xffffffea, RetKind::Int64), "[4294967274]");
  EXPECT_EQ(format_result(INT64_MIN, RetKind::Int64), "[-9223372036854775808]");
}

TEST(ResultFormat, PointersAreNullErrPtrOrHexAddresses) {
  EXPECT_EQ(format_result(0, RetKind::Ptr), "[NULL]");
  EXPECT_EQ(format_result(-12, RetKind::Ptr), "[-ENOMEM]");
  EXPECT_EQ(format_result(k64(0xffffc9000031e000), RetKind::Ptr), "[0xffffc9000031e000]");
  EXPECT_EQ(format_result(-4096, RetKind::Ptr), "[0xfffffffffffff000]");
}

TEST(ResultFormat, UserKindsPrintAsTheKernelsDo) {
  EXPECT_EQ(format_result(-22, RetKind::Neg32), "[-EINVAL]");
  EXPECT_EQ(format_result(0xffffffff, RetKind::Neg32), "[-EPERM]");
  EXPECT_EQ(format_result(-5000, RetKind::Neg64), "[-5000]");
  EXPECT_EQ(format_result(0x1ff, RetKind::Neg8), "[-EPERM]");
  EXPECT_EQ(format_result(0x100, RetKind::False), "[false]");
}

}  // namespace
}  // namespace retsnoop
