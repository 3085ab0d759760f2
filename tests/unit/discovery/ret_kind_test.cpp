#include "discovery/ret_kind.h"

#include <gtest/gtest.h>

#include <cstdint>

namespace retsnoop {
namespace {

constexpr int64_t k64(uint64_t v) { return static_cast<int64_t>(v); }

TEST(ResultJudging, EachKindFailsOnlyOnItsOwnErrorValues) {
  EXPECT_FALSE(result_is_error(-12, RetKind::Void));
  EXPECT_FALSE(result_is_error(0, RetKind::Bool));
  EXPECT_FALSE(result_is_error(-12, RetKind::Bool));
  EXPECT_FALSE(result_is_error(-22, RetKind::Int8));
  EXPECT_FALSE(result_is_error(-22, RetKind::Int16));
  EXPECT_FALSE(result_is_error(-12, RetKind::Unsigned));
  EXPECT_TRUE(result_is_error(-22, RetKind::Int64));
  EXPECT_FALSE(result_is_error(0xffffffea, RetKind::Int64));
  EXPECT_FALSE(result_is_error(-4096, RetKind::Int64));
  EXPECT_TRUE(result_is_error(0, RetKind::Ptr));
  EXPECT_TRUE(result_is_error(-12, RetKind::Ptr));
  EXPECT_FALSE(result_is_error(k64(0xffffc9000031e000), RetKind::Ptr));
  EXPECT_FALSE(result_is_error(-4096, RetKind::Ptr));
}

TEST(ResultJudging, Int32FailsOnlyInsideTheErrnoRange) {
  EXPECT_TRUE(result_is_error(-1, RetKind::Int32));
  EXPECT_TRUE(result_is_error(-4095, RetKind::Int32));
  EXPECT_TRUE(result_is_error(0xfffffff4, RetKind::Int32));
  EXPECT_FALSE(result_is_error(-4096, RetKind::Int32));
  EXPECT_FALSE(result_is_error(0, RetKind::Int32));
  EXPECT_FALSE(result_is_error(22, RetKind::Int32));
  EXPECT_FALSE(result_is_error(0x80000000, RetKind::Int32));
}

// -x/-X match failures by errno: only failing results stand for one, NULL for 0.
TEST(ResultJudging, FailureErrnoOfFailingResultsOnly) {
  EXPECT_EQ(failure_errno(-22, RetKind::Int64), 22);
  EXPECT_EQ(failure_errno(0xffffffea, RetKind::Int32), 22);
  EXPECT_EQ(failure_errno(-7, RetKind::Ptr), 7);
  EXPECT_EQ(failure_errno(0, RetKind::Ptr), 0);
  EXPECT_EQ(failure_errno(22, RetKind::Int32), std::nullopt);
  EXPECT_EQ(failure_errno(0, RetKind::Int32), std::nullopt);
  EXPECT_EQ(failure_errno(0xffffffea, RetKind::Int64), std::nullopt);
  EXPECT_EQ(failure_errno(-22, RetKind::Unsigned), std::nullopt);
  EXPECT_EQ(failure_errno(-22, RetKind::Void), std::nullopt);
}

// User-space kinds follow C: any negative value in the type's width, a false bool.
TEST(ResultJudging, UserKindsFailWhenNegativeOrFalse) {
  EXPECT_TRUE(result_is_error(-1, RetKind::Neg32));
  EXPECT_TRUE(result_is_error(-100000, RetKind::Neg32));
  EXPECT_TRUE(result_is_error(0xffffffff, RetKind::Neg32));
  EXPECT_FALSE(result_is_error(0x7fffffff, RetKind::Neg32));
  EXPECT_FALSE(result_is_error(0, RetKind::Neg32));
  EXPECT_FALSE(result_is_error(0xffffffff, RetKind::Neg64));
  EXPECT_TRUE(result_is_error(k64(0x8000000000000000), RetKind::Neg64));
  EXPECT_TRUE(result_is_error(0x1ff, RetKind::Neg8));
  EXPECT_FALSE(result_is_error(0x17f, RetKind::Neg8));
  EXPECT_TRUE(result_is_error(0x18000, RetKind::Neg16));
  EXPECT_TRUE(result_is_error(0x100, RetKind::False));
  EXPECT_FALSE(result_is_error(0x101, RetKind::False));
  EXPECT_TRUE(can_fail(RetKind::False));
  EXPECT_TRUE(can_fail(RetKind::Neg8));
}

// A negative beyond the errno range fails without standing for an errno.
TEST(ResultJudging, FailureErrnoOfUserKinds) {
  EXPECT_EQ(failure_errno(-22, RetKind::Neg32), 22);
  EXPECT_EQ(failure_errno(-5000, RetKind::Neg64), 0);
  EXPECT_EQ(failure_errno(0, RetKind::False), 0);
  EXPECT_EQ(failure_errno(1, RetKind::False), std::nullopt);
  EXPECT_EQ(failure_errno(5, RetKind::Neg16), std::nullopt);
}

TEST(ResultJudging, UserKindWords) {
  EXPECT_EQ(ret_kind_word(RetKind::Neg32), "int<0");
  EXPECT_EQ(ret_kind_word(RetKind::Neg64), "long<0");
  EXPECT_EQ(ret_kind_word(RetKind::False), "bool=false");
}

}  // namespace
}  // namespace retsnoop
