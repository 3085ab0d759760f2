// --dry-run -v and -v: an --arg-filter program as text, one instruction per line, so that what
// BPF will run can be checked against the expression.
#pragma once

#include <string>

#include "bpf/abi.h"

namespace retsnoop {

// Lines "  N  op operands\n", each prefixed with indent.
std::string render_arg_filter(const rs_arg_filter& prog, const std::string& indent);

}  // namespace retsnoop
