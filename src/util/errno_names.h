// The errno table: NULL, the standard Linux errnos 1-133 with their aliases and the
// kernel-internal 512-530. One table for parsing -x/-X values and printing results.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace retsnoop {

// "EINVAL", "-EINVAL", aliases such as "EWOULDBLOCK" -> positive errno (22, ...); "NULL" -> 0.
// Unknown names -> nullopt.
std::optional<int> errno_from_name(std::string_view name);

// Positive errno -> canonical name without the minus ("EINVAL"), nullptr when unknown.
const char* errno_name(int err);

// Positive errno -> its name, or strerror()'s text when the table lacks it: for messages that
// quote what the kernel answered.
std::string errno_text(int err);

}  // namespace retsnoop
