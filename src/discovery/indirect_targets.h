// What the indirect call sites --callees probed went to at run time, named: per caller, the
// functions reached through a function pointer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "discovery/callee_expansion.h"
#include "discovery/indirect_sites.h"
#include "discovery/kallsyms.h"

namespace retsnoop {

// A (site, target) pair the probes counted: site indexes IndirectSitePlan::sites.
struct SeenTarget {
  uint32_t site = 0;
  uint64_t target = 0;
  uint64_t count = 0;
};

struct IndirectTarget {
  CalleeEdge edge;           // kind BranchKind::Indirect
  uint64_t site_offset = 0;  // of the call or jump in the caller
  uint64_t count = 0;
};

struct IndirectTargets {
  // Sorted by caller, site offset, then callee.
  std::vector<IndirectTarget> targets;
  // Counted targets that are no traceable, not denied function's first byte (a trampoline, a
  // denied or untraceable function).
  size_t unnamed = 0;

  // Each (caller, callee) pair once, in targets' order: the edges a caller's indirect calls
  // were seen to take.
  std::vector<CalleeEdge> edges() const;
};

// Names what the probes saw with ksyms: only targets at a function's start that plan.eligible
// holds.
IndirectTargets resolve_indirect_targets(const IndirectSitePlan& plan,
                                         std::span<const SeenTarget> seen, const Kallsyms& ksyms);

// The -v report: a line per target with its site and count, then the edges in --dry-run -v's
// callee format. Empty when nothing was seen.
std::string render_indirect_targets(const IndirectTargets& t);

}  // namespace retsnoop
