// -A: the argument plan of every traced function, typed from vmlinux or module BTF when the
// function has an exact-name BTF FUNC (or is a ThinLTO ".llvm.N" rename of one), raw register
// slots otherwise: without BTF, and for compiler clones whose registers may differ.
#pragma once

#include <vector>

#include "discovery/func_args.h"
#include "discovery/func_info.h"
#include "discovery/kernel_btf.h"

namespace retsnoop {

// Indexed like funcs. The plans point into btf's BTF objects: btf must outlive them.
std::vector<FuncArgs> traced_func_args(KernelBtf& btf, const FuncTable& funcs);
// The plan of one function, as traced_func_args() makes it.
FuncArgs traced_func_args_of(KernelBtf& btf, const FuncInfo& fn);

}  // namespace retsnoop
