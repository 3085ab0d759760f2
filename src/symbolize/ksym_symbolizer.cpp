#include "symbolize/ksym_symbolizer.h"

namespace retsnoop {

SymbolizedAddr KsymSymbolizer::symbolize(uint64_t addr, bool is_return_addr) {
  SymbolizedAddr out;
  const KSym* sym = ksyms_.find_by_addr(is_return_addr ? addr - 1 : addr);
  if (!sym) return out;
  out.found = true;
  out.name = sym->name();
  out.offset = addr - sym->addr;
  out.module = sym->module();
  return out;
}

}  // namespace retsnoop
