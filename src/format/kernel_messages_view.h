// The KERNEL MESSAGES block of a session: one row per message the kernel emitted inside it.
#pragma once

#include <string>

#include "events/session.h"
#include "format/format_options.h"

namespace retsnoop {

// The function that emitted a message (its caller at the probe), by name; "[unknown]" when the
// source gives no caller, the address when kallsyms has no symbol for it.
std::string kernel_message_function(const KernelMessage& m, const FormatContext& ctx);

// "KERNEL MESSAGES" and a row per message: emitting function, source kind and escaped text,
// aligned in columns. Empty for a session without messages.
std::string format_kernel_messages(const Session& s, const FormatContext& ctx);

}  // namespace retsnoop
