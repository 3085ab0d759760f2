#include "kernel/libbpf_logging.h"

#include <bpf/libbpf.h>

#include <cstdio>

#include "util/log.h"

namespace retsnoop {

namespace {

int level_for(libbpf_print_level level) {
  switch (level) {
    case LIBBPF_WARN: return LOG_INFO;
    case LIBBPF_INFO: return LOG_DEBUG;
    case LIBBPF_DEBUG: break;
  }
  return LOG_TRACE;
}

int print_libbpf(libbpf_print_level level, const char* fmt, va_list ap) {
  if (!log_enabled(level_for(level))) return 0;
  return std::vfprintf(stderr, fmt, ap);
}

int print_all_libbpf(libbpf_print_level, const char* fmt, va_list ap) {
  return std::vfprintf(stderr, fmt, ap);
}

}  // namespace

void route_libbpf_logs(bool all) { libbpf_set_print(all ? print_all_libbpf : print_libbpf); }

}  // namespace retsnoop
