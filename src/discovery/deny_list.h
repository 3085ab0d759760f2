// Functions retsnoop never traces, whatever the user asks for.
#pragma once

#include <span>
#include <string_view>

namespace retsnoop {

// Name globs (any module). Sleeping syscalls need no entry: the fexit trampoline fix that lets
// detaching go on while a traced task sleeps (v5.12, e21aa341785c "bpf: Fix fexit trampoline.")
// predates every kernel retsnoop runs on (BPF cookies, 5.15).
std::span<const std::string_view> builtin_deny_globs();

}  // namespace retsnoop
