#include "discovery/candidates.h"

#include "discovery/symbol_name.h"
#include "util/hash_index.h"

namespace retsnoop {

std::vector<Candidate> group_traceable(const std::vector<TraceableFunc>& list) {
  std::vector<Candidate> unique;
  HashIndex seen(list.size());
  for (const TraceableFunc& f : list) {
    // Normally absent from the list already; never attachable (see is_cold_fragment).
    if (is_cold_fragment(f.name)) continue;
    // By name alone: functions sharing a name nearly always share the module too.
    uint64_t hash = hash_name(f.name);
    bool known = seen.find(hash, [&](uint32_t i) {
      if (unique[i].name != f.name || unique[i].module != f.module) return false;
      ++unique[i].copies;
      return true;
    });
    if (known) continue;
    seen.insert(hash, unique.size());
    unique.push_back({f.module, f.name, 1});
  }
  return unique;
}

std::vector<TraceableFunc> traceable_from_kallsyms(const Kallsyms& ksyms, KernelBtf& btf) {
  // pahole (dwarves 1.20+) encodes BTF only for functions in the ftrace mcount table, so a BTF
  // FUNC is the best available sign that a kallsyms function can be attached to. Compiler clones
  // keep their source name's traceability.
  std::vector<TraceableFunc> out;
  for (const KSym& s : ksyms.symbols()) {
    if (btf.has_func(s.module(), base_name(s.name()))) out.push_back({s.name(), s.module()});
  }
  return out;
}

}  // namespace retsnoop
