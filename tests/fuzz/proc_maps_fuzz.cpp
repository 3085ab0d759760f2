// /proc/PID/maps of a traced process (-U): its paths are whatever the process mapped. The input
// is fed in two pieces, split where its first byte says, as read() may hand it over.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "symbolize/proc_maps.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  size_t split = size ? data[0] % (size + 1) : 0;
  retsnoop::ProcMapsParser parser;
  auto keep = [](const retsnoop::MapsEntry& e) { return !e.path.empty(); };
  parser.feed(text.substr(0, split), keep);
  parser.feed(text.substr(split), keep);
  parser.finish();
  return 0;
}
