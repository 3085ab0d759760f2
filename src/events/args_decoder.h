// -A: decodes one struct rs_args_rec (src/bpf/abi.h) and the data that follows it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "bpf/abi.h"
#include "events/captured_args.h"

namespace retsnoop {

// data holds size bytes after the record. nullopt when the record's lengths do not fit in them.
std::optional<CapturedArgs> decode_args(const rs_args_rec& rec, const uint8_t* data, size_t size);

}  // namespace retsnoop
