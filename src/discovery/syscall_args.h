// -A and --arg-filter for system call wrappers: __x64_sys_bpf(const struct pt_regs *regs) is
// planned as bpf(cmd, uattr, size), each argument read from the user registers the wrapper's
// regs points to, named and typed from the system call's own metadata.
#pragma once

#include <string_view>
#include <vector>

#include "discovery/btf_type_text.h"
#include "discovery/func_args.h"
#include "discovery/syscall_format.h"

struct btf;

namespace retsnoop {

// From the prototype of the function SYSCALL_DEFINE puts the body in (a BTF FUNC or
// FUNC_PROTO id of vmlinux), when every parameter fits one slot; nullopt otherwise.
std::optional<FuncArgs> syscall_args_from_prototype(const struct btf* vmlinux, uint32_t func_id,
                                                    std::string_view syscall);

// From the parameters of the system call's sys_enter format file: each typed as its C text
// says when vmlinux spells that type, named but untyped otherwise.
FuncArgs syscall_args_from_params(const struct btf* vmlinux, BtfTypeText& types,
                                  std::string_view syscall,
                                  const std::vector<SyscallParam>& params);

}  // namespace retsnoop
