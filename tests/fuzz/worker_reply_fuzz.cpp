// A reply of the -U symbolizer worker: it parsed another user's files, so retsnoop reads its
// answer as that user's input.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "symbolize/worker_protocol.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  retsnoop::ReplyReader r(std::string_view(reinterpret_cast<const char*>(data), size));
  r.u64();
  r.i32();
  r.sym();
  return 0;
}
