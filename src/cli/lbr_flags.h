// LBR filter specs for -R/-B/--lbr: perf branch-sample names or a raw PERF_SAMPLE_BRANCH_* mask.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace retsnoop {

// "any_return" -> PERF_SAMPLE_BRANCH_ANY_RETURN; "24", "0x18" and "030" -> 24; "0" -> 0 (the
// default types). Throws InvalidValue listing the valid names.
uint64_t parse_lbr_flags(std::string_view spec);

// The names parse_lbr_flags() knows, for shell completion.
std::vector<std::string_view> lbr_spec_names();

}  // namespace retsnoop
