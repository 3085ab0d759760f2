// Kallsyms symbols plus source locations and inline frames from the vmlinux DWARF (-s, -ss).
#pragma once

#include <cstdint>
#include <unordered_map>

#include "discovery/kallsyms.h"
#include "discovery/vmlinux.h"
#include "symbolize/ksym_symbolizer.h"

#include "symbolize/symb_level.h"

namespace retsnoop {

// Not thread-safe, like the libdw handle it reads.
class DwarfSymbolizer : public Symbolizer {
 public:
  // ksyms must outlive the symbolizer; vmlinux must be the running kernel's (load_vmlinux()).
  DwarfSymbolizer(const Kallsyms& ksyms, LoadedVmlinux vmlinux,
                  SymbLevel detail);  // Lines or Inlines

  // Every address is looked up in DWARF once, then served from a cache. SymbolizedAddr::loc is
  // the position inside the real function: the call site of its outermost inlined call, or the
  // address's own line when nothing is inlined there; each inline frame's loc is likewise the call
  // site of the next inner one, the innermost's the address's own line. With SymbLevel::Lines
  // the inline frames are left out and loc keeps that meaning. Module addresses get kallsyms only.
  SymbolizedAddr symbolize(uint64_t addr, bool is_return_addr) override;

  size_t cached_addrs() const { return cache_[0].size() + cache_[1].size(); }

 private:
  void add_source(SymbolizedAddr& out, uint64_t pc);

  KsymSymbolizer ksyms_;
  LoadedVmlinux vmlinux_;
  SymbLevel detail_;
  std::unordered_map<uint64_t, SymbolizedAddr> cache_[2];  // indexed by is_return_addr
};

}  // namespace retsnoop
