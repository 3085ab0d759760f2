// Line-by-line walks over text already in memory (kallsyms, tracefs listings, verifier logs).
#pragma once

#include <string_view>

namespace retsnoop {

// Calls f(line) for each line of text, without its '\n'; a last line without one counts too.
template <typename F>
void for_each_line(std::string_view text, F&& f) {
  while (!text.empty()) {
    size_t nl = text.find('\n');
    f(text.substr(0, nl));
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
  }
}

}  // namespace retsnoop
