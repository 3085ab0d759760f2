// The shared knob's state file: it lives in the run state directory, where another run (maybe
// one that crashed while writing) left it. What parses must render back to the same state.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "attach/shared_knob.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::optional<retsnoop::KnobState> state =
      retsnoop::parse_knob_state(std::string_view(reinterpret_cast<const char*>(data), size));
  if (state && retsnoop::parse_knob_state(retsnoop::render_knob_state(*state)) != state)
    __builtin_trap();
  return 0;
}
