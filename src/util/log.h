// Leveled diagnostics on stderr. The verbosity is the one piece of process-wide configuration.
// logf() prints each kind's prefix (docs/messages.md), so a message never spells its own.
#pragma once

#include <cstdarg>

namespace retsnoop {

enum LogLevel {
  LOG_ERROR /* "retsnoop: ", always shown */,
  LOG_WARN /* "warning: ", always shown */,
  LOG_HINT /* "hint: ", always shown: how to fix what the line before reported */,
  LOG_NOTICE /* no prefix, always shown: diagnostics asked for by name (--debug FEATURE) */,
  LOG_INFO /* -v */,
  LOG_DEBUG /* -vv */,
  LOG_TRACE /* -vvv */
};

void set_log_verbosity(int verbosity);
bool log_enabled(int level);
void logf(int level, const char* fmt, ...) __attribute__((format(printf, 2, 3)));

}  // namespace retsnoop
