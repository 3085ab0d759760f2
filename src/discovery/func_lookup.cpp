#include "discovery/func_lookup.h"

namespace retsnoop {

const FuncInfo& lookup_func(const FuncTable& funcs, uint32_t func_id) {
  static const FuncInfo unknown{.name = "[unknown]"};
  return func_id < funcs.size() ? funcs[func_id] : unknown;
}

}  // namespace retsnoop
