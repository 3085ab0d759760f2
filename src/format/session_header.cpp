#include "format/session_header.h"

#include <charconv>
#include <ctime>

#include "format/format_cache.h"
#include "util/text_escape.h"

namespace retsnoop {
namespace {

constexpr int64_t kNsPerSec = 1000000000;
constexpr int kUsecDigits = 6;

void append_time_of_day(std::string& out, time_t secs, FormatCache* cache) {
  if (cache) {
    out += cache->time_of_day(secs);
    return;
  }
  char buf[8];
  write_time_of_day(secs, buf);
  out.append(buf, sizeof(buf));
}

// Zero-padded to digits.
void append_padded(std::string& out, uint64_t v, int digits) {
  char buf[24];
  auto end = std::to_chars(buf, buf + sizeof(buf), v).ptr;
  out.append(std::max<ptrdiff_t>(0, digits - (end - buf)), '0');
  out.append(buf, end);
}

void append_wall_clock(std::string& out, uint64_t mono_ns, int64_t mono_to_real_ns,
                       FormatCache* cache) {
  int64_t real_ns = static_cast<int64_t>(mono_ns) + mono_to_real_ns;
  append_time_of_day(out, static_cast<time_t>(real_ns / kNsPerSec), cache);
  out += '.';
  append_padded(out, static_cast<uint64_t>(real_ns % kNsPerSec / 1000), kUsecDigits);
}

void append_number(std::string& out, uint64_t v) {
  char buf[24];
  out.append(buf, std::to_chars(buf, buf + sizeof(buf), v).ptr);
}

}  // namespace

std::string wall_clock(uint64_t mono_ns, int64_t mono_to_real_ns, FormatCache* cache) {
  std::string out;
  append_wall_clock(out, mono_ns, mono_to_real_ns, cache);
  return out;
}

void append_session_header(std::string& out, const Session& s, int64_t mono_to_real_ns,
                           FormatCache* cache) {
  append_wall_clock(out, s.start_ns, mono_to_real_ns, cache);
  out += " -> ";
  append_wall_clock(out, s.end_ns, mono_to_real_ns, cache);
  out += " TID/PID ";
  append_number(out, s.tid);
  out += '/';
  append_number(out, s.pid);
  // Any process names itself: its comm must not end the line or reach the terminal raw.
  out += " (";
  append_escaped(out, s.task_comm);
  out += '/';
  append_escaped(out, s.proc_comm);
  out += s.interim ? ") [interim]:" : "):";
}

}  // namespace retsnoop
