#include "discovery/traced_func_args.h"

#include "discovery/symbol_name.h"

namespace retsnoop {

namespace {

// The BTF FUNC whose prototype fn's registers follow: its own, or for a ThinLTO ".llvm.N"
// rename (same code, new name) its source function's; 0 when there is none.
uint32_t prototype_id(KernelBtf& kbtf, const FuncInfo& fn) {
  if (fn.btf_id != 0) return fn.btf_id;
  std::string_view base = base_name(fn.name);
  bool renamed = std::string_view(fn.name).substr(base.size()).starts_with(".llvm.");
  return renamed ? kbtf.func_type(fn.module, base).btf_id : 0;
}

}  // namespace

FuncArgs traced_func_args_of(KernelBtf& kbtf, const FuncInfo& fn) {
  uint32_t id = prototype_id(kbtf, fn);
  const struct btf* b = id ? kbtf.btf_of(fn.module) : nullptr;
  if (b) return args_from_prototype(b, id);
  std::string_view base = base_name(fn.name);
  // A compiler clone (.isra, .constprop, .part) may take its arguments in other registers than
  // the source prototype says: reading them by that prototype would print wrong values.
  if (base.size() != fn.name.size())
    return raw_func_args("compiler clone of " + std::string(base) +
                         ": its registers may not follow the prototype");
  return raw_func_args("no BTF prototype");
}

std::vector<FuncArgs> traced_func_args(KernelBtf& btf, const FuncTable& funcs) {
  std::vector<FuncArgs> plans;
  plans.reserve(funcs.size());
  for (const FuncInfo& fn : funcs) plans.push_back(traced_func_args_of(btf, fn));
  return plans;
}

}  // namespace retsnoop
