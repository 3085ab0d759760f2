// Functions retsnoop never traces, whatever the user asks for.
#pragma once

#include <string_view>
#include <vector>

namespace retsnoop {

// Name globs (any module). fentry_lacks_sleep_fix: attaching with fentry/fexit on a kernel
// without the fexit sleep fix, where tracing a sleeping syscall blocks detaching.
std::vector<std::string_view> builtin_deny_globs(bool fentry_lacks_sleep_fix);

}  // namespace retsnoop
