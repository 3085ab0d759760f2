#include "discovery/indirect_targets.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <tuple>

#include "discovery/symbol_name.h"

namespace retsnoop {

std::vector<CalleeEdge> IndirectTargets::edges() const {
  std::vector<CalleeEdge> out;
  for (const IndirectTarget& t : targets) {
    bool known = std::any_of(out.begin(), out.end(), [&](const CalleeEdge& e) {
      return e.caller == t.edge.caller && e.callee == t.edge.callee;
    });
    if (!known) out.push_back(t.edge);
  }
  return out;
}

IndirectTargets resolve_indirect_targets(const IndirectSitePlan& plan,
                                         std::span<const SeenTarget> seen, const Kallsyms& ksyms) {
  IndirectTargets out;
  for (const SeenTarget& s : seen) {
    const KSym* sym = ksyms.find_by_addr(s.target);
    std::string callee = sym ? qualified_name(sym->module(), sym->name()) : std::string();
    if (s.site >= plan.sites.size() || !sym || sym->addr != s.target ||
        !plan.eligible.contains(callee)) {
      ++out.unnamed;
      continue;
    }
    const CallerSite& site = plan.sites[s.site];
    out.targets.push_back({{site.caller, std::move(callee), BranchKind::Indirect},
                           site.site.addr - site.caller_addr,
                           s.count});
  }
  std::sort(out.targets.begin(), out.targets.end(),
            [](const IndirectTarget& a, const IndirectTarget& b) {
              return std::tie(a.edge.caller, a.site_offset, a.edge.callee) <
                     std::tie(b.edge.caller, b.site_offset, b.edge.callee);
            });
  return out;
}

std::string render_indirect_targets(const IndirectTargets& t) {
  if (t.targets.empty()) return "";
  std::string out;
  char line[64];
  for (const IndirectTarget& x : t.targets) {
    std::snprintf(line, sizeof(line), "+0x%" PRIx64, x.site_offset);
    out += "callees: indirect targets seen at run time: " + x.edge.caller + line + " -> " +
           x.edge.callee + " (" + std::to_string(x.count) + " times)\n";
  }
  std::vector<CalleeEdge> edges = t.edges();
  out += "Callees seen at run time: " + std::to_string(edges.size()) + "\n";
  for (const CalleeEdge& e : edges) out += "  " + callee_edge_text(e) + "\n";
  return out;
}

}  // namespace retsnoop
