#include "events/args_decoder.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

namespace retsnoop {
namespace {

rs_args_rec record(uint32_t data_len, std::initializer_list<int32_t> lens) {
  rs_args_rec r{};
  r.type = RS_REC_ARGS;
  r.func_id = 3;
  r.session_id = 9;
  r.call_seq = 2;
  r.data_len = data_len;
  for (size_t i = 0; i < RS_MAX_ARG_SLOTS; ++i) r.slots[i] = 0x100 + i;
  size_t i = 0;
  for (int32_t len : lens) r.lens[i++] = len;
  return r;
}

// Each argument's data starts at the 8-byte boundary after the previous one's; arguments
// without data (registers only, faults, budget) take none.
TEST(ArgsDecoder, SplitsDataAtAlignedOffsets) {
  std::vector<uint8_t> data(24, 0);
  std::memcpy(data.data(), "abc", 3);              // 3 bytes at 0
  std::memcpy(data.data() + 8, "0123456789", 10);  // 10 bytes at 8, the next would start at 24
  auto args = decode_args(record(18, {3, 0, RS_ARG_ERR_FAULT, 10, RS_ARG_ERR_BUDGET}), data.data(),
                          data.size());
  ASSERT_TRUE(args);
  EXPECT_EQ(args->func_id, 3u);
  EXPECT_EQ(args->call_seq, 2u);
  ASSERT_EQ(args->slots.size(), size_t(RS_MAX_ARG_SLOTS));
  EXPECT_EQ(args->slots[5], 0x105u);
  ASSERT_EQ(args->lens.size(), size_t(RS_MAX_ARG_SLOTS));
  EXPECT_EQ(args->lens[2], RS_ARG_ERR_FAULT);
  EXPECT_EQ(args->lens[4], RS_ARG_ERR_BUDGET);
  ASSERT_EQ(args->data.size(), size_t(RS_MAX_ARG_SLOTS));
  EXPECT_EQ(std::string(args->data[0].begin(), args->data[0].end()), "abc");
  EXPECT_TRUE(args->data[1].empty());
  EXPECT_TRUE(args->data[2].empty());
  EXPECT_EQ(std::string(args->data[3].begin(), args->data[3].end()), "0123456789");
}

TEST(ArgsDecoder, LengthsPastTheDataAreRefused) {
  std::vector<uint8_t> data(16, 0);
  EXPECT_FALSE(decode_args(record(16, {8, 9}), data.data(), data.size()));  // 8 + 9 > 16
  EXPECT_FALSE(decode_args(record(32, {8}), data.data(), data.size()));     // more than sent
  EXPECT_TRUE(decode_args(record(16, {8, 8}), data.data(), data.size()));
}

}  // namespace
}  // namespace retsnoop
