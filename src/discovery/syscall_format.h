// A system call's declared parameters, for its wrapper's -A and --arg-filter: which kernel
// functions are system call wrappers, and the parameters a system call's tracefs entry event
// (events/syscalls/sys_enter_NAME/format) lists, names and C types as SYSCALL_DEFINE wrote them.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace retsnoop {

// System calls take at most 6 arguments, in registers, on every architecture.
inline constexpr size_t kMaxSyscallArgs = 6;

struct SyscallParam {
  std::string name;
  std::string type;  // C text, e.g. "union bpf_attr __user *"
};

// The system call a wrapper enters: "bpf" for __x64_sys_bpf or __arm64_sys_bpf; nullopt for
// any other function (compat and ia32 wrappers read other registers, and are not planned).
std::optional<std::string_view> syscall_of_wrapper(std::string_view func);

// The parameters of a sys_enter_NAME format file, in order: each an 8-byte field at offset
// 16 + 8 * i after the system call number (the kernel's struct syscall_trace_enter). nullopt
// when the file does not have that shape: a field out of place, a name that is no C
// identifier, more than kMaxSyscallArgs.
std::optional<std::vector<SyscallParam>> parse_syscall_format(std::string_view text);

}  // namespace retsnoop
