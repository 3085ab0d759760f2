#include "discovery/zoom_planner.h"

#include <algorithm>

namespace retsnoop {

ZoomSelection plan_next_round(std::span<const std::string> chain, unsigned depth,
                              std::span<const CalleeEdge> extra_edges) {
  ZoomSelection next;
  next.entry_globs.push_back(chain.front());
  next.allow_globs.assign(chain.begin() + 1, chain.end());
  const std::string& deepest = chain.back();
  next.callee_globs.push_back(deepest + ":" + std::to_string(depth));
  for (const CalleeEdge& e : extra_edges) {
    bool known = std::find(next.allow_globs.begin(), next.allow_globs.end(), e.callee) !=
                 next.allow_globs.end();
    if (e.caller == deepest && e.callee != chain.front() && !known)
      next.allow_globs.push_back(e.callee);
  }
  return next;
}

bool goes_deeper(std::span<const std::string> before, std::span<const std::string> now) {
  if (before.empty()) return !now.empty();
  auto at = std::find(now.begin(), now.end(), before.back());
  return at != now.end() && at + 1 != now.end();
}

}  // namespace retsnoop
