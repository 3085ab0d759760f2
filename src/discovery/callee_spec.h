// --callees GLOB[:DEPTH] as typed: which functions' callees are traced, and how deep.
#pragma once

#include <string>
#include <string_view>

namespace retsnoop {

// Callees of callees down to this depth at most: each level multiplies the functions traced.
constexpr unsigned kMaxCalleeDepth = 5;

struct CalleeSpec {
  std::string glob;  // "name", "name [mod]" or ":path", as for -a
  unsigned depth = 1;
};

// Splits "GLOB[:DEPTH]": a ':' after the start ends the glob, and what follows must be a depth
// from 1 to kMaxCalleeDepth (a leading ':' starts a path glob). Throws UserError otherwise.
CalleeSpec parse_callee_spec(std::string_view text);

}  // namespace retsnoop
