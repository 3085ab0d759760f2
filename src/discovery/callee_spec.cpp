#include "discovery/callee_spec.h"

#include <charconv>

#include "util/error.h"

namespace retsnoop {

CalleeSpec parse_callee_spec(std::string_view text) {
  size_t colon = text.rfind(':');
  if (colon == std::string_view::npos || colon == 0) return {std::string(text), 1};
  std::string_view digits = text.substr(colon + 1);
  unsigned depth = 0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), depth);
  if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size() || depth < 1 ||
      depth > kMaxCalleeDepth)
    throw UserError("--callees '" + std::string(text) + "': depth must be a number from 1 to " +
                    std::to_string(kMaxCalleeDepth));
  return {std::string(text.substr(0, colon)), depth};
}

}  // namespace retsnoop
