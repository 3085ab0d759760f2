// Kallsyms-only symbolization (-sn, or when no matching vmlinux with DWARF is available).
#pragma once

#include "discovery/kallsyms.h"
#include "symbolize/symbolizer.h"

namespace retsnoop {

class KsymSymbolizer : public Symbolizer {
 public:
  // ksyms must outlive the symbolizer.
  explicit KsymSymbolizer(const Kallsyms& ksyms) : ksyms_(ksyms) {}

  // name+offset and module of the closest function symbol at or below addr. A return address is
  // looked up at addr - 1 (as the kernel's %pB does): after a call that never returns it can equal
  // the next function's start, yet the call belongs to the previous one. The offset is addr's own.
  SymbolizedAddr symbolize(uint64_t addr, bool is_return_addr) override;

 private:
  const Kallsyms& ksyms_;
};

}  // namespace retsnoop
