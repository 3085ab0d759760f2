#include "symbolize/dwarf_symbolizer.h"

#include "symbolize/dwarf_lookup.h"

namespace retsnoop {

namespace {

std::string name_of(Dwarf_Die* func) {
  const char* name = dwarf_function_name(func);
  return name ? name : "";
}

}  // namespace

DwarfSymbolizer::DwarfSymbolizer(const Kallsyms& ksyms, LoadedVmlinux vmlinux, SymbLevel detail)
    : ksyms_(ksyms), vmlinux_(std::move(vmlinux)), detail_(detail) {}

SymbolizedAddr DwarfSymbolizer::symbolize(uint64_t addr, bool is_return_addr) {
  auto& cache = cache_[is_return_addr];
  if (auto it = cache.find(addr); it != cache.end()) return it->second;
  SymbolizedAddr out = ksyms_.symbolize(addr, is_return_addr);
  // A return address follows the call; one byte back lands on the call instruction itself.
  if (out.found && out.module.empty())
    add_source(out, addr - vmlinux_.kaslr_offset - (is_return_addr ? 1 : 0));
  return cache.emplace(addr, std::move(out)).first->second;
}

void DwarfSymbolizer::add_source(SymbolizedAddr& out, uint64_t pc) {
  Dwarf_Die cu;
  if (!dwarf_addrdie(vmlinux_.image->dwarf(), pc, &cu)) return;
  std::vector<Dwarf_Die> chain = function_scopes(&cu, pc);
  SourceLoc here = line_at(&cu, pc);
  if (chain.empty()) {
    out.loc = std::move(here);
    return;
  }
  const char* name = dwarf_function_name(&chain[0]);
  if (name && out.name != name) out.dwarf_name = name;
  // Frame i executes at the call site of frame i + 1; the innermost at pc's own line.
  auto loc_in = [&](size_t i) {
    return i + 1 < chain.size() ? call_site(&cu, &chain[i + 1]) : here;
  };
  out.loc = loc_in(0);
  if (detail_ != SymbLevel::Inlines) return;
  for (size_t i = 1; i < chain.size(); ++i) out.inlines.push_back({name_of(&chain[i]), loc_in(i)});
}

}  // namespace retsnoop
