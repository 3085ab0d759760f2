#include "util/allocator_policy.h"

#include <malloc.h>

namespace retsnoop {

namespace {
// glibc's default, fixed: a buffer this large gets pages of its own, unmapped when freed.
constexpr int kMmapThreshold = 128 * 1024;
}  // namespace

void set_allocator_policy() {
  // By default glibc raises the mmap threshold to the size of each large buffer freed, so after
  // kallsyms' text is freed the next large buffers land in the heap, and their freed space stays
  // resident there for the whole run: 10 MB and more with a traced run's discovery. Setting the
  // threshold turns that adjustment off.
  mallopt(M_MMAP_THRESHOLD, kMmapThreshold);
}

}  // namespace retsnoop
