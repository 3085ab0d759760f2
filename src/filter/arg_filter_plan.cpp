#include "filter/arg_filter_plan.h"

#include "discovery/traced_func_args.h"
#include "filter/arg_filter_compiler.h"
#include "filter/arg_filter_listing.h"
#include "util/error.h"
#include "util/strings.h"

namespace retsnoop {

ArgFilterPlan plan_arg_filters(const std::vector<std::string>& exprs, const FuncTable& funcs,
                               std::span<const FuncArgs> user_args, KernelBtf& btf,
                               const std::vector<std::string>& tracefs_dirs) {
  ArgFilterPlan plan;
  ArgFilterCompiler compiler(exprs);
  TracedFuncArgs args(btf, tracefs_dirs);
  plan.progs.resize(funcs.size());
  std::vector<std::string> left_out;
  std::string first_error;
  bool any = false;
  for (size_t i = 0; i < funcs.size(); ++i) {
    if (!funcs[i].is_entry) continue;
    bool user = funcs[i].is_user() && i < user_args.size();
    ArgFilterProgram p = compiler.compile(user ? user_args[i] : args.of(funcs[i]));
    std::string why = p.missing.empty() ? p.error : "its prototype has no '" + p.missing + "'";
    if (why.empty()) {
      plan.progs[i] = p.prog;
      any = true;
      continue;
    }
    plan.notes.push_back("--arg-filter: entry function " + funcs[i].name +
                         " opens no session: " + why);
    if (!p.missing.empty()) left_out.push_back(funcs[i].name + " has no '" + p.missing + "'");
    if (first_error.empty()) first_error = p.error;
  }
  // A typo fails every function alike: its message, with the column, says more than the names.
  if (!any && !first_error.empty()) throw UserError(first_error);
  if (!any)
    throw UserError("--arg-filter: no entry function has every name the expressions use: " +
                    join(left_out, ", "));
  return plan;
}

std::string render_arg_filter_plan(const ArgFilterPlan& plan, const FuncTable& funcs) {
  std::string out;
  for (size_t i = 0; i < funcs.size() && i < plan.progs.size(); ++i) {
    if (!funcs[i].is_entry) continue;
    const rs_arg_filter& p = plan.progs[i];
    if (!p.cnt) {
      out += "Argument filter of " + funcs[i].name + ": none, opens no session\n";
      continue;
    }
    out += "Argument filter of " + funcs[i].name + " (" + std::to_string(p.cnt) +
           " instructions):\n" + render_arg_filter(p, "  ");
  }
  return out;
}

}  // namespace retsnoop
