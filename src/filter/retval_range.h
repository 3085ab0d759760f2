// One --allow-retval/--deny-retval range: the filter's own type, which the command line fills.
#pragma once

#include <cstdint>

namespace retsnoop {

// Return values lo..hi, both included, as result_value() reads them (an errno is negative).
struct RetvalRange {
  int64_t lo = 0;
  int64_t hi = 0;
  bool operator==(const RetvalRange&) const = default;
};

}  // namespace retsnoop
