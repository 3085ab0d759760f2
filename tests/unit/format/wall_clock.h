// Session timestamps for tests: monotonic nanoseconds that read as a chosen UTC time of day on
// 2022-10-14, the date of the reference examples in example_sessions.h.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <ctime>

namespace retsnoop::test {

constexpr int64_t kDayStartEpoch = 1665705600;    // 2022-10-14 00:00:00 UTC
constexpr uint64_t kBootOffsetNs = 123456789000;  // monotonic clock ran this long before that day
constexpr int64_t kMonoToRealNs = kDayStartEpoch * 1000000000 - int64_t(kBootOffsetNs);

inline uint64_t mono_ns_at(int h, int m, int s, int us) {
  uint64_t secs = uint64_t(h) * 3600 + uint64_t(m) * 60 + uint64_t(s);
  return kBootOffsetNs + secs * 1000000000 + uint64_t(us) * 1000;
}

// Header times are local time; pin the zone so the expected text does not depend on the host.
inline void use_utc() {
  setenv("TZ", "UTC", 1);
  tzset();
}

}  // namespace retsnoop::test
