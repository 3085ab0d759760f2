// The text of a kernel message (events/kernel_message.h): its printf-style format expanded with
// the arguments captured in BPF, as the kernel's vsnprintf would have written it. Pure: the
// caller escapes the result before it reaches a terminal.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "events/kernel_message.h"

namespace retsnoop {

// fmt expanded with args. %s takes the argument's string ("(null)" for a null pointer,
// "(efault)" where BPF read none); integers keep their length modifier's width; width, precision
// (also as *) and the flags - 0 + space # apply. %p and its extensions (%pS, %pI4, ...), unknown
// conversions and conversions past the last argument are copied as written.
std::string expand_kernel_format(std::string_view fmt, const std::vector<KernelMessageArg>& args);

// The message as the kernel logs it ("tmpfs: Bad value for 'size'"), cut to max_len bytes, a cut
// marked with "...".
std::string kernel_message_text(const KernelMessage& m, size_t max_len);

// The source's name in the output: fs, extack, verifier.
const char* kernel_message_kind_name(KernelMessageKind kind);

}  // namespace retsnoop
