// Address -> symbol (+ source location and inline chain) lookups used by the output formatters.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace retsnoop {

struct SourceLoc {
  std::string file;  // trimmed to the kernel tree root; empty when unknown
  int line = 0;
  int col = 0;
  bool known() const { return !file.empty(); }
};

struct InlineFrame {
  std::string name;
  SourceLoc loc;  // location inside this inlined function
};

struct SymbolizedAddr {
  bool found = false;      // false: address outside every known symbol
  std::string name;        // kallsyms name
  uint64_t offset = 0;     // address - symbol start
  std::string module;      // empty for vmlinux
  std::string dwarf_name;  // DWARF name of the function, set only when it differs from name
  SourceLoc loc;           // location inside the outermost (real) function
  std::vector<InlineFrame> inlines;  // outermost first
};

class Symbolizer {
 public:
  virtual ~Symbolizer() = default;
  // is_return_addr: the address follows a call (stack frames, not LBR targets), so source
  // lookups use addr - 1 to land on the call instruction.
  virtual SymbolizedAddr symbolize(uint64_t addr, bool is_return_addr) = 0;
};

}  // namespace retsnoop
