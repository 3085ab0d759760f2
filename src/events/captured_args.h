// -A: one traced call's captured arguments, as decoded from struct rs_args_rec (src/bpf/abi.h).
// The renderer (format/arg_render.h) turns them into text with the function's plan.
#pragma once

#include <cstdint>
#include <vector>

namespace retsnoop {

struct CapturedArgs {
  uint32_t func_id = 0;
  uint32_t call_seq = 0;
  std::vector<uint64_t> slots;             // raw register slot values
  std::vector<int32_t> lens;               // per argument: bytes in data, or RS_ARG_ERR_*
  std::vector<std::vector<uint8_t>> data;  // per argument: its captured bytes
};

}  // namespace retsnoop
