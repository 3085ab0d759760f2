#include "symbolize/awaiting_symbolizer.h"

namespace retsnoop {

SymbolizedAddr AwaitingSymbolizer::symbolize(uint64_t addr, bool is_return_addr) {
  loaded_.wait();
  return inner_.symbolize(addr, is_return_addr);
}

}  // namespace retsnoop
