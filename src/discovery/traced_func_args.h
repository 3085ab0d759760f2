// -A: the argument plan of every traced function, typed from vmlinux or module BTF when the
// function has an exact-name BTF FUNC (or is a ThinLTO ".llvm.N" rename of one), raw register
// slots otherwise: without BTF, and for compiler clones whose registers may differ. A system
// call's wrapper gets the system call's own arguments (syscall_args.h).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "discovery/btf_type_text.h"
#include "discovery/func_args.h"
#include "discovery/func_info.h"
#include "discovery/kernel_btf.h"

namespace retsnoop {

class TracedFuncArgs {
 public:
  // tracefs_dirs: where the system calls' sys_enter format files are looked for.
  TracedFuncArgs(KernelBtf& btf, std::vector<std::string> tracefs_dirs);

  // The plan of one function. It points into the BTF objects of btf: btf must outlive it.
  FuncArgs of(const FuncInfo& fn);
  // Indexed like funcs.
  std::vector<FuncArgs> all(const FuncTable& funcs);

 private:
  std::optional<FuncArgs> syscall_args(std::string_view syscall);
  std::optional<FuncArgs> from_prototype(std::string_view func, std::string_view syscall);
  std::optional<FuncArgs> from_format(std::string_view syscall);

  KernelBtf& btf_;
  std::vector<std::string> tracefs_dirs_;
  std::optional<BtfTypeText> types_;  // vmlinux's, made for the first format file
};

}  // namespace retsnoop
