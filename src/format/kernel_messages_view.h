// The KERNEL MESSAGES block of a session: one row per message the kernel emitted inside it.
#pragma once

#include <string>

#include "events/session.h"
#include "format/format_options.h"

namespace retsnoop {

// The function that emitted a message, by name: the first frame past the message plumbing in the
// stack the source captured (printk, verifier), else its caller at the probe; "[unknown]" when
// the source gives neither, the address when kallsyms has no symbol for the caller.
std::string kernel_message_function(const KernelMessage& m, const FormatContext& ctx);

// "shmem_parse_one fs: tmpfs: Bad value for 'size'": the function, the source and the text cut
// to -C messages.max-len and escaped, for one-line places (-T rows, --summary).
std::string kernel_message_line(const KernelMessage& m, const FormatContext& ctx);

// "KERNEL MESSAGES" and a row per message: emitting function, source kind and escaped text,
// aligned in columns. Empty for a session without messages.
std::string format_kernel_messages(const Session& s, const FormatContext& ctx);

}  // namespace retsnoop
