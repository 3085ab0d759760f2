// Real return kinds of kernel functions that BTF describes as returning u64.
#pragma once

#include <optional>
#include <string_view>

#include "discovery/func_info.h"

namespace retsnoop {

// Kind of a BPF helper implementation (vmlinux name), nullopt for any other function.
std::optional<RetKind> bpf_helper_ret_kind(std::string_view name);

}  // namespace retsnoop
