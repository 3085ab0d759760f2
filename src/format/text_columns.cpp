#include "format/text_columns.h"

namespace retsnoop {
namespace {

bool is_utf8_continuation(char c) { return (static_cast<unsigned char>(c) & 0xc0) == 0x80; }

size_t padding(std::string_view s, size_t width) {
  size_t w = display_width(s);
  return w < width ? width - w : 0;
}

}  // namespace

size_t display_width(std::string_view s) {
  size_t w = 0;
  for (char c : s) w += is_utf8_continuation(c) ? 0 : 1;
  return w;
}

std::string pad_right(std::string_view s, size_t width) {
  std::string out(s);
  out.append(padding(s, width), ' ');
  return out;
}

std::string pad_left(std::string_view s, size_t width) {
  std::string out(padding(s, width), ' ');
  out += s;
  return out;
}

}  // namespace retsnoop
