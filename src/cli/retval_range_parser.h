// Values of --allow-retval and --deny-retval: one return value or a range of them.
#pragma once

#include <string_view>

#include "cli/options.h"

namespace retsnoop {

// "EINVAL" and "-EINVAL" (-22), "NULL" (0), a decimal or 0x-prefixed hex integer with an
// optional '-', or "LO..HI" with LO not above HI, each bound one of those. Throws InvalidValue.
RetvalRange parse_retval_range(std::string_view text);

}  // namespace retsnoop
