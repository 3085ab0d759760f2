// The -C KEY=VALUE registry: one table gives each setting its parser, its help line and how its
// current value is shown, so --config-help can never disagree with what -C accepts.
#pragma once

#include <string>
#include <string_view>

#include "cli/options.h"

namespace retsnoop {

// Applies "KEY=VALUE"; unknown keys and bad values throw UserError.
void apply_setting(Options& opts, std::string_view key_value);

// The --config-help text: every key with its default, the values it accepts and what it does.
std::string settings_help();

}  // namespace retsnoop
