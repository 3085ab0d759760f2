#include "discovery/traced_func_args.h"

#include "discovery/symbol_name.h"
#include "discovery/syscall_args.h"
#include "discovery/syscall_format.h"
#include "discovery/tp_format.h"

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

FuncArgs own_args(KernelBtf& kbtf, const FuncInfo& fn) {
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

}  // namespace

TracedFuncArgs::TracedFuncArgs(KernelBtf& btf, std::vector<std::string> tracefs_dirs)
    : btf_(btf), tracefs_dirs_(std::move(tracefs_dirs)) {}

std::optional<FuncArgs> TracedFuncArgs::from_prototype(std::string_view func,
                                                       std::string_view syscall) {
  const struct btf* vmlinux = btf_.btf_of("");
  uint32_t id = vmlinux ? btf_.func_type("", func).btf_id : 0;
  return id ? syscall_args_from_prototype(vmlinux, id, syscall) : std::nullopt;
}

std::optional<FuncArgs> TracedFuncArgs::from_format(std::string_view syscall) {
  std::optional<std::string> format =
      read_tp_format(tracefs_dirs_, "syscalls", "sys_enter_" + std::string(syscall));
  std::optional<std::vector<SyscallParam>> params =
      format ? parse_syscall_format(*format) : std::nullopt;
  if (!params) return std::nullopt;
  if (!types_) types_.emplace(btf_.btf_of(""));
  return syscall_args_from_params(btf_.btf_of(""), *types_, syscall, *params);
}

// Where the system call's parameters are written, best first: the prototype of __do_sys_NAME,
// which holds SYSCALL_DEFINE's body (most are inlined and have no BTF); the sys_enter format
// file, which lists them as declared; the prototype of __se_sys_NAME, whose parameters are all
// long (names only).
std::optional<FuncArgs> TracedFuncArgs::syscall_args(std::string_view syscall) {
  std::string name(syscall);
  if (std::optional<FuncArgs> plan = from_prototype("__do_sys_" + name, syscall)) return plan;
  if (std::optional<FuncArgs> plan = from_format(syscall)) return plan;
  return from_prototype("__se_sys_" + name, syscall);
}

FuncArgs TracedFuncArgs::of(const FuncInfo& fn) {
  std::optional<std::string_view> syscall =
      fn.module.empty() ? syscall_of_wrapper(fn.name) : std::nullopt;
  if (syscall)
    if (std::optional<FuncArgs> plan = syscall_args(*syscall)) return std::move(*plan);
  return own_args(btf_, fn);
}

std::vector<FuncArgs> TracedFuncArgs::all(const FuncTable& funcs) {
  std::vector<FuncArgs> plans;
  plans.reserve(funcs.size());
  for (const FuncInfo& fn : funcs) plans.push_back(of(fn));
  return plans;
}

}  // namespace retsnoop
