// A function selected for tracing, as discovery hands it to attach and output: a kernel
// function, or a user-space one in an ELF file.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "discovery/ret_kind.h"

namespace retsnoop {

struct FuncInfo {
  std::string name;              // kallsyms name, may carry a compiler suffix (foo.isra.0)
  std::string module;            // empty for vmlinux
  uint64_t addr = 0;             // runtime address from kallsyms
  RetKind ret = RetKind::Int32;  // functions without BTF are treated as returning int
  bool has_btf = false;  // ret comes from BTF (of the function or, for clones, its source name)
  bool is_entry = false;
  uint32_t btf_id = 0;  // vmlinux or module BTF id of the FUNC, for fentry; 0 when there is none
                        // of this exact name (no BTF, or a compiler clone like foo.constprop.0)
  uint8_t nargs = 0;    // parameters of its BTF prototype: where fexit's context holds the result
  // A user-space function (uprobes): the ELF file it is in, and where in it the function starts.
  // Empty for a kernel function.
  std::string binary;
  uint64_t file_offset = 0;

  bool is_user() const { return !binary.empty(); }
};

// Index in this vector is the function id used by BPF (the attach cookie).
using FuncTable = std::vector<FuncInfo>;

}  // namespace retsnoop
