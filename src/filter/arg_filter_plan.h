// --arg-filter for every entry function of the plan: each gets its program, compiled against
// its own prototype; one whose prototype lacks a name the expressions use opens no session.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "bpf/abi.h"
#include "discovery/func_args.h"
#include "discovery/func_info.h"
#include "discovery/kernel_btf.h"

namespace retsnoop {

struct ArgFilterPlan {
  std::vector<rs_arg_filter> progs;  // indexed like funcs; cnt 0 for functions that open none
  std::vector<std::string> notes;    // the entry functions left out, and why (for -v)
};

// Throws UserError for an expression that does not parse or type-check, and when no entry
// function has every name the expressions use.
// A system call wrapper's names are the system call's, read from the sys_enter format files
// under the first of tracefs_dirs that has them when BTF does not have them. A user-space
// function's prototype is its plan in user_args (indexed like funcs).
ArgFilterPlan plan_arg_filters(const std::vector<std::string>& exprs, const FuncTable& funcs,
                               std::span<const FuncArgs> user_args, KernelBtf& btf,
                               const std::vector<std::string>& tracefs_dirs);

// --dry-run -v: each entry function's program.
std::string render_arg_filter_plan(const ArgFilterPlan& plan, const FuncTable& funcs);

}  // namespace retsnoop
