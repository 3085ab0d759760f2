#include "app/malloc_tuning.h"

#include <malloc.h>

namespace retsnoop {

void keep_freed_memory() {
  // Well above anything start-up allocates (the largest buffer is kallsyms, ~7 MB), far below
  // what would matter for memory use.
  constexpr int kMmapThreshold = 256 << 20;
  constexpr int kTrimThreshold = 512 << 20;
  mallopt(M_MMAP_THRESHOLD, kMmapThreshold);
  mallopt(M_TRIM_THRESHOLD, kTrimThreshold);
}

}  // namespace retsnoop
