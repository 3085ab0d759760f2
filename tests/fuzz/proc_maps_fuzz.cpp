// /proc/PID/maps of a traced process (-U): its paths are whatever the process mapped.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "symbolize/proc_maps.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  retsnoop::parse_proc_maps(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
