// The kprobe_events and kprobe_profile listings of tracefs: other tools' events are listed too,
// under names retsnoop did not choose.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "attach/kprobe_events.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  for (const retsnoop::EventName& ev : retsnoop::parse_kprobe_events(text))
    retsnoop::group_run_id(ev.group);
  retsnoop::parse_missed_hits(text, "retsnoop_");
  return 0;
}
