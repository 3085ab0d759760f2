#include "discovery/callee_expansion.h"

#include <deque>
#include <optional>
#include <string_view>
#include <unordered_map>

#include "discovery/symbol_name.h"

namespace retsnoop {

namespace {

// Candidates by (module, name): a callee is traceable when it is one.
class CandidateIndex {
 public:
  explicit CandidateIndex(std::span<const Candidate> cands) : cands_(cands) {
    by_name_.reserve(cands.size());
    for (size_t i = 0; i < cands.size(); ++i) by_name_.emplace(cands[i].name, i);
  }
  std::optional<size_t> find(const KSym& s) const {
    auto [first, last] = by_name_.equal_range(s.name());
    for (auto it = first; it != last; ++it) {
      if (cands_[it->second].module == s.module()) return it->second;
    }
    return std::nullopt;
  }

 private:
  std::span<const Candidate> cands_;
  std::unordered_multimap<std::string_view, size_t> by_name_;
};

struct Visit {
  const KSym* sym;
  uint8_t depth;  // levels of callees still to find below sym
};

}  // namespace

std::string callee_edge_text(const CalleeEdge& e) {
  return e.caller + " -> " + e.callee + " (" + std::string(branch_kind_word(e.kind)) + ")";
}

std::vector<size_t> expand_callees(const CalleeWalk& w, const Kallsyms& ksyms,
                                   const CalleeFinder& finder, std::vector<bool>& selected,
                                   CalleeReport& report) {
  CandidateIndex index(w.cands);
  std::deque<Visit> queue;
  for (const KSym& s : ksyms.symbols()) {
    std::optional<size_t> i = index.find(s);
    if (i && w.root_depth[*i] > 0) queue.push_back({&s, w.root_depth[*i]});
  }
  std::unordered_map<uint64_t, uint8_t> walked;  // by address: depth each copy was walked to
  std::vector<bool> left_out(w.cands.size());
  std::vector<size_t> added;
  while (!queue.empty()) {
    Visit v = queue.front();
    queue.pop_front();
    auto [it, first_visit] = walked.emplace(v.sym->addr, v.depth);
    if (!first_visit) {
      // Reached again from higher up: only a deeper walk finds anything new.
      if (it->second >= v.depth) continue;
      it->second = v.depth;
    }
    std::optional<std::vector<FoundCallee>> callees = finder.callees(*v.sym);
    if (!callees) {
      if (first_visit) report.unreadable.push_back(qualified_name(v.sym->module(), v.sym->name()));
      continue;
    }
    if (first_visit) report.walked.push_back(v.sym);
    for (const FoundCallee& c : *callees) {
      std::optional<size_t> i = index.find(*c.sym);
      if (!i || w.denied[*i]) continue;
      if (first_visit)
        report.edges.push_back({qualified_name(v.sym->module(), v.sym->name()),
                                qualified_name(c.sym->module(), c.sym->name()), c.kind});
      if (!selected[*i]) {
        if (added.size() >= w.max_added) {
          if (!left_out[*i]) ++report.left_out;
          left_out[*i] = true;
          continue;
        }
        selected[*i] = true;
        added.push_back(*i);
      }
      if (v.depth > 1) queue.push_back({c.sym, uint8_t(v.depth - 1)});
    }
  }
  return added;
}

}  // namespace retsnoop
