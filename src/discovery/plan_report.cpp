#include "discovery/plan_report.h"

#include <algorithm>
#include <vector>

#include "discovery/symbol_name.h"

namespace retsnoop {

namespace {

void append_counts(std::string& out, const FuncPlan& plan, std::string_view vmlinux) {
  const PlanStats& s = plan.stats;
  out += "vmlinux: " + (vmlinux.empty() ? std::string("none (no DWARF)") : std::string(vmlinux)) +
         "\n";
  out += "Traceable functions: " + std::to_string(s.traceable) +
         (s.traceable_from_tracefs ? " (available_filter_functions)\n"
                                   : " (guessed from kallsyms and BTF)\n");
  out += "Matched functions: " + std::to_string(s.matched) + " (" + std::to_string(s.denied) +
         " more denied)\n";
  out += "Attachable functions: " + std::to_string(plan.funcs.size()) + "\n";
  out += "Skipped functions: " + std::to_string(s.skipped.size()) + "\n";
  for (const SkippedFunc& f : s.skipped)
    out += "  " + qualified_name(f.module, f.name) + ": " + f.reason + "\n";
}

// "entry,int", "ptr,no-btf", "entry,long,user"...
std::string func_flags(const FuncInfo& f) {
  std::string flags = f.is_entry ? "entry," : "";
  flags += ret_kind_word(f.ret);
  if (f.is_user())
    flags += ",user";
  else if (!f.has_btf)
    flags += ",no-btf";
  return flags;
}

// A user-space function goes by its binary, and where the uprobe goes is its file offset.
std::string listed_name(const FuncInfo& f) {
  return f.is_user() ? f.binary + ":" + f.name : qualified_name(f.module, f.name);
}

// "%016" PRIx64 without printf: -v prints a line per function before attaching, ten thousand of
// them for a broad glob, and snprintf with a string temporary per line doubled the time taken.
void append_addr(std::string& out, uint64_t addr) {
  static constexpr char kDigits[] = "0123456789abcdef";
  for (int shift = 60; shift >= 0; shift -= 4) out += kDigits[(addr >> shift) & 0xf];
}

void append_functions(std::string& out, const FuncTable& funcs) {
  std::vector<std::string> names;
  names.reserve(funcs.size());
  size_t width = 0;
  for (const FuncInfo& f : funcs) {
    names.push_back(listed_name(f));
    width = std::max(width, names.back().size());
  }
  out += "Functions to attach:\n";
  out.reserve(out.size() + funcs.size() * (width + 32));
  for (size_t i = 0; i < funcs.size(); ++i) {
    out += "  ";
    append_addr(out, funcs[i].is_user() ? funcs[i].file_offset : funcs[i].addr);
    out.append("  ").append(names[i]).append(width - names[i].size(), ' ').append("  ");
    out.append(func_flags(funcs[i])).append("\n");
  }
}

// --callees: each function found, under the function whose code calls or jumps to it.
void append_callees(std::string& out, const CalleeReport& r) {
  if (r.source.empty()) return;
  out += "Callees found in " + r.source + ": " + std::to_string(r.edges.size()) + "\n";
  for (const CalleeEdge& e : r.edges) out += "  " + callee_edge_text(e) + "\n";
  if (r.left_out > 0)
    out += "  " + std::to_string(r.left_out) + " more left out past callees.max-functions\n";
}

// --callees: the indirect call sites whose targets only a run shows.
void append_indirect_sites(std::string& out, const IndirectSitePlan& p) {
  out += "Indirect call sites to probe: " + std::to_string(p.sites.size()) + "\n";
  if (p.unsupported > 0)
    out += "  " + std::to_string(p.unsupported) + " more through operands not probed\n";
  if (p.left_out > 0)
    out += "  " + std::to_string(p.left_out) + " more left out past callees.max-sites\n";
}

void append_glob_counts(std::string& out, const std::vector<GlobCount>& counts) {
  out += "Glob matches:\n";
  for (const GlobCount& g : counts)
    out += "  " + g.category + " '" + g.glob + "': " + std::to_string(g.matches) + "\n";
}

}  // namespace

std::string render_plan(const FuncPlan& plan, std::string_view vmlinux, int verbosity) {
  std::string out;
  append_counts(out, plan, vmlinux);
  append_functions(out, plan.funcs);
  append_callees(out, plan.callees);
  if (!plan.callees.source.empty()) append_indirect_sites(out, plan.indirect);
  if (verbosity >= 2) append_glob_counts(out, plan.glob_counts);
  return out;
}

}  // namespace retsnoop
