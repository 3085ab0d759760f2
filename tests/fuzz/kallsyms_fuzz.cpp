// /proc/kallsyms: module and BPF program names come from whoever loaded them. The lookups run
// too, since they rely on the order and anchors the parser leaves.
#include <cstddef>
#include <cstdint>
#include <string>

#include "discovery/kallsyms.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using retsnoop::Kallsyms;
  Kallsyms ks = Kallsyms::parse_text(std::string(reinterpret_cast<const char*>(data), size));
  for (const retsnoop::KSym& sym : ks.symbols()) {
    ks.find_by_addr(sym.addr);
    ks.find_by_addr(sym.addr + 1);
    ks.extent(sym);
  }
  if (!ks.symbols().empty()) ks.find_by_name(ks.symbols().front().name());
  ks.addr_of("_stext");
  return 0;
}
