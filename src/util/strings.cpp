#include "util/strings.h"

namespace retsnoop {

std::string_view trim(std::string_view s) {
  size_t b = s.find_first_not_of(kWhitespace);
  if (b == std::string_view::npos) return {};
  return s.substr(b, s.find_last_not_of(kWhitespace) - b + 1);
}

std::string_view trim_right(std::string_view s) {
  size_t e = s.find_last_not_of(kWhitespace);
  return e == std::string_view::npos ? std::string_view{} : s.substr(0, e + 1);
}

std::string join(const std::vector<std::string>& parts, std::string_view sep) {
  std::string out;
  for (const std::string& p : parts) {
    if (!out.empty()) out += sep;
    out += p;
  }
  return out;
}

}  // namespace retsnoop
