#include "discovery/func_args_plan.h"

#include "discovery/symbol_name.h"

namespace retsnoop {

namespace {

FuncArgs plan_one(KernelBtf& kbtf, const FuncInfo& fn) {
  if (fn.btf_id != 0) {
    const struct btf* b = kbtf.btf_of(fn.module);
    if (b) return plan_func_args(b, fn.btf_id);
  }
  std::string_view base = base_name(fn.name);
  // A compiler clone (.isra, .constprop, .part) may take its arguments in other registers than
  // the source prototype says: reading them by that prototype would print wrong values.
  if (base.size() != fn.name.size())
    return raw_func_args("compiler clone of " + std::string(base) +
                         ": its registers may not follow the prototype");
  return raw_func_args("no BTF prototype");
}

}  // namespace

std::vector<FuncArgs> plan_args(KernelBtf& btf, const FuncTable& funcs) {
  std::vector<FuncArgs> plans;
  plans.reserve(funcs.size());
  for (const FuncInfo& fn : funcs) plans.push_back(plan_one(btf, fn));
  return plans;
}

}  // namespace retsnoop
