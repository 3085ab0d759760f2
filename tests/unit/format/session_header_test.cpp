#include "format/session_header.h"

#include <gtest/gtest.h>

#include "view_text.h"
#include "wall_clock.h"

namespace retsnoop::test {
namespace {

Session session() {
  return {.pid = 8346,
          .tid = 8350,
          .task_comm = "worker",
          .proc_comm = "simfail",
          .start_ns = mono_ns_at(20, 19, 36, 372607) + 999,  // sub-microsecond part is cut
          .end_ns = mono_ns_at(20, 19, 36, 372682)};
}

TEST(SessionHeader, ExampleFormatInUtc) {
  use_utc();
  EXPECT_EQ(session_header_text(session(), kMonoToRealNs),
            "20:19:36.372607 -> 20:19:36.372682 TID/PID 8350/8346 (worker/simfail):");
}

TEST(SessionHeader, UsesTheLocalTimeZone) {
  setenv("TZ", "XYZ-3", 1);  // POSIX zone three hours east of UTC, needs no tzdata
  tzset();
  EXPECT_EQ(session_header_text(session(), kMonoToRealNs),
            "23:19:36.372607 -> 23:19:36.372682 TID/PID 8350/8346 (worker/simfail):");
  use_utc();
}

// A comm is whatever the process set with PR_SET_NAME: the header stays one line of plain text.
TEST(SessionHeader, EscapesComms) {
  use_utc();
  Session s = session();
  s.task_comm = "e\"v\\i\nl\x1b[1m";
  s.proc_comm = "a/b\r";
  EXPECT_EQ(session_header_text(s, kMonoToRealNs),
            "20:19:36.372607 -> 20:19:36.372682 TID/PID 8350/8346 "
            "(e\"v\\\\i\\nl\\x1b[1m/a/b\\r):");
}

}  // namespace
}  // namespace retsnoop::test
