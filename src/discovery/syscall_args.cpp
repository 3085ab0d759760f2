#include "discovery/syscall_args.h"

#include <bpf/btf.h>

#include <initializer_list>
#include <string>

#include "discovery/btf_types.h"

namespace retsnoop {

namespace {

// SYSCALL_DEFINE declares what its enum type would say as an integer (bpf's "int cmd"); the
// UAPI enum of those values is named after the call and the parameter (enum bpf_cmd,
// membarrier_cmd, kcmp_type). An integer parameter takes that enum's type, so that -A names
// the value; --arg-filter accepts the names either way.
uint32_t named_enum_type(const struct btf* vmlinux, std::string_view syscall,
                         std::string_view param, uint32_t type_id) {
  ResolvedType type = resolve_btf_type(vmlinux, type_id);
  if (!type.t || !btf_is_int(type.t)) return type_id;
  std::string name = std::string(syscall) + "_" + std::string(param);
  for (int kind : std::initializer_list<int>{BTF_KIND_ENUM, BTF_KIND_ENUM64}) {
    int id = btf__find_by_name_kind(vmlinux, name.c_str(), kind);
    if (id > 0) return static_cast<uint32_t>(id);
  }
  return type_id;
}

// The named slots of a system call: slot i is argument i.
FuncArgs syscall_plan(const struct btf* vmlinux) {
  FuncArgs plan;
  plan.btf = vmlinux;
  plan.syscall_regs = true;
  return plan;
}

}  // namespace

std::optional<FuncArgs> syscall_args_from_prototype(const struct btf* vmlinux, uint32_t func_id,
                                                    std::string_view syscall) {
  FuncArgs proto = args_from_prototype(vmlinux, func_id);
  if (!proto.raw_reason.empty() || proto.variadic || proto.uncaptured ||
      proto.args.size() > kMaxSyscallArgs)
    return std::nullopt;
  FuncArgs plan = syscall_plan(vmlinux);
  for (size_t i = 0; i < proto.args.size(); ++i) {
    const ArgInfo& a = proto.args[i];
    if (a.spec.slot != i || a.spec.slots != 1) return std::nullopt;
    uint32_t type = named_enum_type(vmlinux, syscall, a.name, a.type_id);
    std::optional<ArgInfo> arg = arg_in_slot(vmlinux, a.name, type, static_cast<uint32_t>(i));
    if (!arg) return std::nullopt;
    plan.args.push_back(std::move(*arg));
  }
  return plan;
}

FuncArgs syscall_args_from_params(const struct btf* vmlinux, BtfTypeText& types,
                                  std::string_view syscall,
                                  const std::vector<SyscallParam>& params) {
  FuncArgs plan = syscall_plan(vmlinux);
  for (size_t i = 0; i < params.size() && i < kMaxSyscallArgs; ++i) {
    const SyscallParam& p = params[i];
    uint32_t type = vmlinux ? types.find(p.type) : 0;
    if (type) type = named_enum_type(vmlinux, syscall, p.name, type);
    auto slot = static_cast<uint32_t>(i);
    std::optional<ArgInfo> arg = arg_in_slot(vmlinux, p.name, type, slot);
    if (!arg) arg = arg_in_slot(nullptr, p.name, 0, slot);
    std::optional<CTypeText> c = parse_c_type(p.type);
    if (arg->spec.kind != RS_ARG_REG && c && c->user) arg->spec.flags |= RS_ARG_USER;
    plan.args.push_back(std::move(*arg));
  }
  return plan;
}

}  // namespace retsnoop
