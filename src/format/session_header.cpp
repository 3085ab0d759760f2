#include "format/session_header.h"

#include <cstdio>
#include <ctime>

namespace retsnoop {
namespace {

constexpr int64_t kNsPerSec = 1000000000;

}  // namespace

std::string wall_clock(uint64_t mono_ns, int64_t mono_to_real_ns) {
  int64_t real_ns = static_cast<int64_t>(mono_ns) + mono_to_real_ns;
  time_t secs = static_cast<time_t>(real_ns / kNsPerSec);
  long usecs = static_cast<long>(real_ns % kNsPerSec / 1000);
  struct tm tm {};
  localtime_r(&secs, &tm);
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%02d:%02d:%02d.%06ld", tm.tm_hour, tm.tm_min, tm.tm_sec, usecs);
  return buf;
}

std::string format_session_header(const Session& s, int64_t mono_to_real_ns) {
  return wall_clock(s.start_ns, mono_to_real_ns) + " -> " + wall_clock(s.end_ns, mono_to_real_ns) +
         " TID/PID " + std::to_string(s.tid) + "/" + std::to_string(s.pid) + " (" + s.task_comm +
         "/" + s.proc_comm + ")" + (s.interim ? " [interim]" : "") + ":";
}

}  // namespace retsnoop
