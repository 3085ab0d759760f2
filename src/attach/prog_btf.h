// What the kernel keeps of a loaded program's BTF: its function layout, which copies of the
// program loaded by hand need to get the same verification, and the verifier's work on it.
#pragma once

#include <linux/bpf.h>

#include <cstdint>
#include <span>
#include <vector>

#include "util/owned_fd.h"

namespace retsnoop {

// The function records a copy of a loaded program passes to bpf_prog_load(): without them the
// verifier takes every subprogram as static and checks it again at every call, where a global
// one is checked once on its own. Empty (funcs) where the layout could not be matched.
struct CopyFuncInfo {
  OwnedFd btf;
  std::vector<bpf_func_info> funcs;
};

// For copies of insns, the instructions libbpf loaded as program template_fd: the functions'
// BTF types in the kernel's order, at the offsets of insns' subprogram calls.
CopyFuncInfo copy_func_info(int template_fd, std::span<const bpf_insn> insns);

// Instructions the verifier processed for the program (bpf_prog_info verified_insns, 5.16+; 0
// before).
uint32_t prog_verified_insns(int prog_fd);

}  // namespace retsnoop
