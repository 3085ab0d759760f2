#include "util/text_escape.h"

#include <algorithm>

namespace retsnoop {
namespace {

bool plain(unsigned char c, char quote) {
  return c >= 0x20 && c < 0x7f && c != '\\' && c != static_cast<unsigned char>(quote);
}

void append_escape(std::string& out, unsigned char c) {
  static constexpr char kHex[] = "0123456789abcdef";
  switch (c) {
    case '\n': out += "\\n"; return;
    case '\t': out += "\\t"; return;
    case '\r': out += "\\r"; return;
    default: break;
  }
  if (c >= 0x20 && c < 0x7f) {  // the backslash or the quote
    out += '\\';
    out += static_cast<char>(c);
    return;
  }
  out += "\\x";
  out += kHex[c >> 4];
  out += kHex[c & 0xf];
}

}  // namespace

void append_escaped(std::string& out, std::string_view s, char quote) {
  // Nearly every name is plain: one scan, one append.
  auto first = std::find_if(
      s.begin(), s.end(), [quote](char c) { return !plain(static_cast<unsigned char>(c), quote); });
  out.append(s.begin(), first);
  for (auto it = first; it != s.end(); ++it) {
    unsigned char c = static_cast<unsigned char>(*it);
    if (plain(c, quote))
      out += static_cast<char>(c);
    else
      append_escape(out, c);
  }
}

std::string escaped(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  append_escaped(out, s);
  return out;
}

}  // namespace retsnoop
