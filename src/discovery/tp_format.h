// A classic tracepoint's record layout, from the event's tracefs "format" file: each field's
// name, C type, offset, size and signedness, as the kernel itself lays the record out.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace retsnoop {

// Where a field's bytes are: in place, or (__data_loc, __rel_loc) elsewhere in the record,
// found through a 32-bit locator in place: the low 16 bits an offset, the high 16 a length.
enum class TpLoc : uint8_t {
  Fixed,
  Data,      // __data_loc: offset from the record's start
  Relative,  // __rel_loc: offset from the end of the locator
};

struct TpField {
  std::string name;
  std::string type;        // the C type as the format file writes it, without "[N]"
  uint32_t offset = 0;     // bytes from the record's start
  uint32_t size = 0;       // bytes in place (a locator: 4)
  bool is_signed = false;  // of the field, or of an array's elements
  TpLoc loc = TpLoc::Fixed;
  uint32_t elem_size = 0;  // arrays (fixed or located): bytes per element; 0: not an array
  bool text = false;       // an array of char: shown as a string
  bool pointer = false;    // an address, shown in hex
  uint32_t capture = 0;    // the planner's: which captured argument holds its bytes
};

// The fields of format text after the common header (common_*), in record order. Lines that do
// not parse are skipped: the layout of each field is on its own line.
std::vector<TpField> parse_tp_format(std::string_view text);

// The format file of events/CATEGORY/NAME under the first of tracefs_dirs that has one.
std::optional<std::string> read_tp_format(const std::vector<std::string>& tracefs_dirs,
                                          std::string_view category, std::string_view name);

}  // namespace retsnoop
