#include "discovery/line_plan.h"

#include <dwarf.h>

#include <algorithm>
#include <optional>
#include <unordered_map>

#include "discovery/glob.h"
#include "discovery/kallsyms.h"
#include "util/error.h"

namespace retsnoop {

namespace {

bool in_ranges(const CodeRanges& ranges, uint64_t addr) {
  return std::any_of(ranges.begin(), ranges.end(),
                     [&](const auto& r) { return addr >= r.first && addr < r.second; });
}

// The top-level subprogram DIE of cu whose code covers pc.
std::optional<Dwarf_Die> subprogram_at(Dwarf_Die* cu, Dwarf_Addr pc) {
  Dwarf_Die child;
  if (dwarf_child(cu, &child) != 0) return std::nullopt;
  do {
    if (dwarf_tag(&child) == DW_TAG_subprogram && dwarf_haspc(&child, pc) == 1) return child;
  } while (dwarf_siblingof(&child, &child) == 0);
  return std::nullopt;
}

CodeRanges ranges_of(Dwarf_Die* func) {
  CodeRanges out;
  Dwarf_Addr base, begin, end;
  for (ptrdiff_t off = 0; (off = dwarf_ranges(func, off, &base, &begin, &end)) > 0;)
    out.emplace_back(begin, end);
  return out;
}

std::vector<LineTableRow> line_table(Dwarf_Die* cu) {
  Dwarf_Lines* lines;
  size_t n;
  std::vector<LineTableRow> rows;
  if (dwarf_getsrclines(cu, &lines, &n) != 0) return rows;
  rows.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    Dwarf_Line* l = dwarf_onesrcline(lines, i);
    LineTableRow row;
    Dwarf_Addr addr;
    const char* file = dwarf_linesrc(l, nullptr, nullptr);
    if (dwarf_lineaddr(l, &addr) != 0) continue;
    row.addr = addr;
    row.file = file ? file : "";
    dwarf_lineno(l, &row.line);
    dwarf_linebeginstatement(l, &row.is_stmt);
    dwarf_lineendsequence(l, &row.end_sequence);
    rows.push_back(row);
  }
  return rows;
}

// Whether the function got line probes.
bool add_function_lines(LinePlan& plan, const KSym& sym, const LoadedVmlinux& vmlinux) {
  std::vector<LineStart> starts =
      function_line_starts(vmlinux.image->dwarf(), sym.addr - vmlinux.kaslr_offset);
  if (starts.empty()) {
    plan.notes.push_back("--line-trace: the DWARF has no line of " + std::string(sym.name()));
    return false;
  }
  for (LineStart& start : starts)
    plan.probes.push_back({std::string(sym.name()), sym.addr, start.addr + vmlinux.kaslr_offset,
                           std::move(start.file), start.line});
  return true;
}

}  // namespace

std::vector<LineStart> line_starts(const std::vector<LineTableRow>& rows, const CodeRanges& ranges,
                                   uint64_t entry) {
  std::vector<LineStart> out;
  const LineTableRow* prev = nullptr;  // the row in force before the current address
  bool stmt_here = false;              // a statement row at the current address
  for (size_t i = 0; i < rows.size(); ++i) {
    const LineTableRow& row = rows[i];
    if (row.end_sequence) {
      prev = nullptr;
      stmt_here = false;
      continue;
    }
    stmt_here |= row.is_stmt;
    bool last_here = i + 1 == rows.size() || rows[i + 1].addr != row.addr;
    if (!last_here) continue;
    bool new_line = !prev || prev->line != row.line || prev->file != row.file;
    if (stmt_here && new_line && row.line != 0 && row.addr != entry && in_ranges(ranges, row.addr))
      out.push_back({row.addr, std::string(row.file), row.line});
    prev = &row;
    stmt_here = false;
  }
  auto by_addr = [](const LineStart& a, const LineStart& b) { return a.addr < b.addr; };
  auto same_addr = [](const LineStart& a, const LineStart& b) { return a.addr == b.addr; };
  std::stable_sort(out.begin(), out.end(), by_addr);
  out.erase(std::unique(out.begin(), out.end(), same_addr), out.end());
  return out;
}

// On arm64 the symbol covers ftrace's patchable-entry NOPs, which the DWARF leaves out: the
// subprogram's code begins a few instructions past the symbol.
constexpr uint64_t kMaxEntryPadding = 16;

std::vector<LineStart> function_line_starts(Dwarf* dwarf, uint64_t link_addr) {
  Dwarf_Die cu;
  std::optional<Dwarf_Die> func;
  for (uint64_t pc = link_addr; !func && pc <= link_addr + kMaxEntryPadding; pc += 4) {
    if (dwarf_addrdie(dwarf, pc, &cu)) func = subprogram_at(&cu, pc);
  }
  if (!func) return {};
  Dwarf_Addr entry = link_addr;
  dwarf_lowpc(&*func, &entry);
  std::vector<LineStart> starts = line_starts(line_table(&cu), ranges_of(&*func), entry);
  for (LineStart& start : starts) start.file = cu_tree_path(start.file, &cu);
  return starts;
}

LinePlan plan_line_probes(const std::vector<std::string>& globs, const LoadedVmlinux& vmlinux,
                          const Kallsyms& ksyms) {
  LinePlan plan;
  // Function address -> whether it got probes: two globs may match one function.
  std::unordered_map<uint64_t, bool> planned;
  for (const std::string& glob : globs) {
    bool any = false;
    for (const KSym& sym : ksyms.symbols()) {
      if (!sym.module().empty() || !glob_match(glob, sym.name())) continue;
      auto [it, added] = planned.emplace(sym.addr, false);
      if (added) it->second = add_function_lines(plan, sym, vmlinux);
      any |= it->second;
      if (plan.probes.size() > kMaxLineProbes)
        throw UserError("--line-trace '" + glob + "': more than " + std::to_string(kMaxLineProbes) +
                        " line probes; narrow the globs down to the functions in question");
    }
    if (!any)
      throw UserError("--line-trace '" + glob +
                      "': no kernel function with source lines in the vmlinux DWARF matches");
  }
  return plan;
}

}  // namespace retsnoop
