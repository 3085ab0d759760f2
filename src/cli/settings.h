// The -C KEY=VALUE registry: one table gives each setting its parser, its help line and how its
// current value is shown, so --config-help can never disagree with what -C accepts.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "cli/options.h"

namespace retsnoop {

// Applies "KEY=VALUE"; unknown keys and bad values throw UserError.
void apply_setting(Options& opts, std::string_view key_value);

// The --config-help text: every key with its default, the values it accepts and what it does.
std::string settings_help();

struct SettingInfo {
  std::string key;
  std::vector<std::string> words;  // the values a shell can offer; empty for free-form ones
  std::string default_value;       // as --config-help shows it
  std::string values;              // what it accepts, in words
  std::string doc;                 // what it does, in sentences
};

// Every setting, in --config-help order: what the man page (generated from it) and shell
// completions show.
std::vector<SettingInfo> setting_infos();

}  // namespace retsnoop
