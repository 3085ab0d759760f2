#include "util/log.h"

#include <cstdio>

namespace retsnoop {

namespace {

int g_verbosity = 0;

// The -v count from which a level shows.
int verbosity_for(int level) {
  switch (level) {
    case LOG_INFO: return 1;
    case LOG_DEBUG: return 2;
    case LOG_TRACE: return 3;
    default: return 0;
  }
}

const char* prefix_for(int level) {
  switch (level) {
    case LOG_ERROR: return "retsnoop: ";
    case LOG_WARN: return "warning: ";
    case LOG_HINT: return "hint: ";
    default: return "";
  }
}

}  // namespace

void set_log_verbosity(int verbosity) { g_verbosity = verbosity; }

bool log_enabled(int level) { return verbosity_for(level) <= g_verbosity; }

void logf(int level, const char* fmt, ...) {
  if (!log_enabled(level)) return;
  std::fputs(prefix_for(level), stderr);
  va_list ap;
  va_start(ap, fmt);
  std::vfprintf(stderr, fmt, ap);
  va_end(ap);
}

}  // namespace retsnoop
