// --zoom's round planning: from the failing chain one round found, the functions the next round
// traces. Pure: the rounds themselves run elsewhere (app/zoom.cpp).
#pragma once

#include <span>
#include <string>
#include <vector>

#include "discovery/callee_expansion.h"

namespace retsnoop {

constexpr unsigned kDefaultZoomRounds = 10;
constexpr unsigned kMaxZoomRounds = 100;
constexpr unsigned kDefaultZoomDepth = 2;

// --zoom and -C zoom.depth.
struct ZoomOptions {
  unsigned rounds = 0;  // 0: off
  unsigned depth = kDefaultZoomDepth;
};

// What one round traces, as the globs of -e, -a and --callees.
struct ZoomSelection {
  std::vector<std::string> entry_globs;
  std::vector<std::string> allow_globs;
  std::vector<std::string> callee_globs;  // "GLOB:DEPTH"
};

// The round after one whose failing chain (qualified names, entry first) is chain: its entry
// again, the rest of the chain, and the callees of its deepest function: those its code calls,
// to depth levels (--callees), plus those extra_edges name for it (callees known otherwise, such
// as the targets of its indirect calls seen at run time). chain must not be empty.
ZoomSelection plan_next_round(std::span<const std::string> chain, unsigned depth,
                              std::span<const CalleeEdge> extra_edges);

// Whether the failing chain a round found goes below the deepest function of the chain the
// round before found, i.e. one of that function's callees failed too; when it does not, that
// function is where the failure starts.
bool goes_deeper(std::span<const std::string> before, std::span<const std::string> now);

}  // namespace retsnoop
