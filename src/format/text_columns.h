// Padding for fixed-width text columns. Widths are display columns, not bytes: the call trace
// arrows are 3-byte UTF-8 characters that take one column.
#pragma once

#include <string>
#include <string_view>

namespace retsnoop {

// Code points in UTF-8 text; every character we print is one column wide.
size_t display_width(std::string_view s);

std::string pad_right(std::string_view s, size_t width);
std::string pad_left(std::string_view s, size_t width);

}  // namespace retsnoop
