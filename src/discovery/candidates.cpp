#include "discovery/candidates.h"

#include <algorithm>

#include "discovery/symbol_name.h"

namespace retsnoop {

std::vector<Candidate> group_traceable(const std::vector<TraceableFunc>& list) {
  std::vector<Candidate> all;
  all.reserve(list.size());
  for (const TraceableFunc& f : list) {
    // Normally absent from the list already; never attachable (see is_cold_fragment).
    if (!is_cold_fragment(f.name)) all.push_back({f.module, f.name, 1});
  }
  auto key = [](const Candidate& c) { return std::pair(c.module, c.name); };
  std::sort(all.begin(), all.end(),
            [&](const Candidate& a, const Candidate& b) { return key(a) < key(b); });
  std::vector<Candidate> unique;
  for (const Candidate& c : all) {
    if (!unique.empty() && key(unique.back()) == key(c))
      ++unique.back().copies;
    else
      unique.push_back(c);
  }
  return unique;
}

std::vector<TraceableFunc> traceable_from_kallsyms(const Kallsyms& ksyms, BtfFuncs& btf) {
  // pahole (dwarves 1.20+) encodes BTF only for functions in the ftrace mcount table, so a BTF
  // FUNC is the best available sign that a kallsyms function can be attached to. Compiler clones
  // keep their source name's traceability.
  std::vector<TraceableFunc> out;
  for (const KSym& s : ksyms.symbols()) {
    if (btf.has_func(s.module, base_name(s.name))) out.push_back({s.name, s.module});
  }
  return out;
}

}  // namespace retsnoop
