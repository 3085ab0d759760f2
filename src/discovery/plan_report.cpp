#include "discovery/plan_report.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>

#include "discovery/symbol_name.h"

namespace retsnoop {

namespace {

std::string_view ret_kind_word(RetKind k) {
  switch (k) {
    case RetKind::Void:
      return "void";
    case RetKind::Bool:
      return "bool";
    case RetKind::Unsigned:
      return "unsigned";
    case RetKind::Int32:
      return "int";
    case RetKind::Int64:
      return "long";
    case RetKind::Int8:
      return "s8";
    case RetKind::Int16:
      return "s16";
    case RetKind::Ptr:
      return "ptr";
  }
  return "?";
}

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

// "entry,int", "ptr,no-btf", ...
std::string func_flags(const FuncInfo& f) {
  std::string flags = f.is_entry ? "entry," : "";
  flags += ret_kind_word(f.ret);
  if (!f.has_btf) flags += ",no-btf";
  return flags;
}

void append_functions(std::string& out, const FuncTable& funcs) {
  size_t width = 0;
  for (const FuncInfo& f : funcs) width = std::max(width, qualified_name(f.module, f.name).size());
  out += "Functions to attach:\n";
  for (const FuncInfo& f : funcs) {
    char addr[24];
    std::snprintf(addr, sizeof(addr), "%016" PRIx64, f.addr);
    std::string name = qualified_name(f.module, f.name);
    name.resize(width, ' ');
    out += "  " + std::string(addr) + "  " + name + "  " + func_flags(f) + "\n";
  }
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
  if (verbosity >= 2) append_glob_counts(out, plan.glob_counts);
  return out;
}

}  // namespace retsnoop
