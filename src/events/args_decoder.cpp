#include "events/args_decoder.h"

namespace retsnoop {

namespace {

constexpr uint32_t kDataAlign = 8;  // each argument's data starts 8-byte aligned (abi.h)

uint32_t align_up(uint32_t off) { return (off + kDataAlign - 1) & ~(kDataAlign - 1); }

}  // namespace

std::optional<CapturedArgs> decode_args(const rs_args_rec& rec, const uint8_t* data, size_t size) {
  if (rec.data_len > size) return std::nullopt;
  CapturedArgs args;
  args.func_id = rec.func_id;
  args.call_seq = rec.call_seq;
  args.slots.assign(std::begin(rec.slots), std::end(rec.slots));
  args.lens.assign(std::begin(rec.lens), std::end(rec.lens));
  args.data.resize(RS_MAX_ARG_SLOTS);
  uint32_t off = 0;
  for (size_t i = 0; i < RS_MAX_ARG_SLOTS; ++i) {
    if (rec.lens[i] <= 0) continue;
    uint32_t len = rec.lens[i];
    if (off > rec.data_len || len > rec.data_len - off) return std::nullopt;
    args.data[i].assign(data + off, data + off + len);
    off = align_up(off + len);
  }
  return args;
}

}  // namespace retsnoop
