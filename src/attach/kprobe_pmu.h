// Perf kprobes opened through the kprobe PMU at a kernel address, for a BPF program to attach to
// with its own cookie.
#pragma once

#include <cstdint>
#include <optional>

#include "util/owned_fd.h"

namespace retsnoop {

// The kprobe PMU's perf event type; nullopt (errno set) when the kernel has none.
std::optional<int> kprobe_pmu_type();

// A kprobe at addr on every task and CPU; an invalid fd (errno set) when the kernel refuses it.
// By address, not symbol+offset: a static function's name may be shared, and since 6.5 the kernel
// refuses such names.
OwnedFd open_kprobe_at(int pmu_type, uint64_t addr);

}  // namespace retsnoop
