#include "util/log.h"

#include <cstdio>

namespace retsnoop {

namespace {
int g_verbosity = 0;
}

void set_log_verbosity(int verbosity) { g_verbosity = verbosity; }

bool log_enabled(int level) { return level <= g_verbosity; }

void logf(int level, const char* fmt, ...) {
  if (!log_enabled(level)) return;
  va_list ap;
  va_start(ap, fmt);
  std::vfprintf(stderr, fmt, ap);
  va_end(ap);
}

}  // namespace retsnoop
