// Leveled diagnostics on stderr. The verbosity is the one piece of process-wide configuration.
#pragma once

#include <cstdarg>

namespace retsnoop {

enum LogLevel {
  LOG_WARN = 0,
  LOG_INFO = 1 /* -v */,
  LOG_DEBUG = 2 /* -vv */,
  LOG_TRACE = 3 /* -vvv */
};

void set_log_verbosity(int verbosity);
bool log_enabled(int level);
void logf(int level, const char* fmt, ...) __attribute__((format(printf, 2, 3)));

}  // namespace retsnoop
