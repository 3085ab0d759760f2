// Built-in glob sets selected with -c NAME.
#pragma once

#include <span>
#include <string_view>
#include <vector>

namespace retsnoop {

struct CasePreset {
  std::string_view name;
  std::span<const std::string_view> entry;
  std::span<const std::string_view> allow;
  std::span<const std::string_view> deny;
};

// Throws UserError listing the valid names when name is unknown.
const CasePreset& find_case_preset(std::string_view name);

std::vector<std::string_view> case_preset_names();

}  // namespace retsnoop
