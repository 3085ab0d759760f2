// Small string helpers shared by the parsers and renderers.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace retsnoop {

inline constexpr std::string_view kWhitespace = " \t\n\r\v\f";

// s without leading and trailing whitespace.
std::string_view trim(std::string_view s);
// s without trailing whitespace.
std::string_view trim_right(std::string_view s);
// The parts joined by sep.
std::string join(const std::vector<std::string>& parts, std::string_view sep);

}  // namespace retsnoop
