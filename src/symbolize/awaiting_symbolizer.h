// A symbolizer whose symbol table is still being loaded in the background: each lookup waits for
// the load to finish (at once when it has). Lets the tracer attach and start receiving before the
// part of kallsyms that only stack output needs has been read.
#pragma once

#include <future>

#include "symbolize/symbolizer.h"

namespace retsnoop {

class AwaitingSymbolizer : public Symbolizer {
 public:
  // loaded becomes ready once inner's symbols are complete; inner must outlive this.
  AwaitingSymbolizer(Symbolizer& inner, std::shared_future<void> loaded)
      : inner_(inner), loaded_(std::move(loaded)) {}

  SymbolizedAddr symbolize(uint64_t addr, bool is_return_addr) override;

 private:
  Symbolizer& inner_;
  std::shared_future<void> loaded_;
};

}  // namespace retsnoop
