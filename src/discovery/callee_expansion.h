// Callee discovery over the traceable functions: from the functions --callees selects, the
// functions they call, to each glob's depth.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "discovery/callee_finder.h"
#include "discovery/candidates.h"

namespace retsnoop {

struct CalleeEdge {
  std::string caller;  // qualified names: "name" or "name [module]"
  std::string callee;
  BranchKind kind = BranchKind::Call;
};

// "caller -> callee (kind)": how --dry-run -v lists an edge.
std::string callee_edge_text(const CalleeEdge& e);

// What --dry-run -v and the warnings say about callee discovery.
struct CalleeReport {
  std::string source;                   // where the text was read; empty without --callees
  std::vector<CalleeEdge> edges;        // to traceable, not denied functions, in discovery order
  size_t left_out = 0;                  // functions past the budget
  std::vector<std::string> unreadable;  // functions whose text could not be read
  std::vector<const KSym*> walked;      // functions whose callees were read, in walk order
};

struct CalleeWalk {
  std::span<const Candidate> cands;
  std::span<const uint8_t> root_depth;  // per candidate: its --callees depth, 0 when not a root
  std::span<const uint8_t> denied;      // per candidate: removed by a deny glob
  size_t max_added = 0;                 // budget of functions added
};

// Walks from the roots' kallsyms copies through their callees, breadth first, and marks in
// selected (per candidate) each traceable, not denied callee reached within depth. Returns the
// candidates it selected, at most w.max_added of them, in the order found.
std::vector<size_t> expand_callees(const CalleeWalk& w, const Kallsyms& ksyms,
                                   const CalleeFinder& finder, std::vector<bool>& selected,
                                   CalleeReport& report);

}  // namespace retsnoop
