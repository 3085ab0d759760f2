// Counters of probe hits the kernel dropped instead of running our programs. Each returns 0 where
// the kernel does not count: whether a count means anything is Feature::ProbeMissCounters's
// business.
#pragma once

#include <cstdint>

namespace retsnoop {

// Runs skipped because a BPF program was already running on the CPU (bpf_prog_info
// recursion_misses, 5.12+; kprobe programs count it since 6.7).
uint64_t prog_recursion_misses(int prog_fd);

// Hits a kprobe-multi or perf-event kprobe link missed (kprobe recursion, kretprobe instances
// exhausted): bpf_link_info "missed", 6.7+.
uint64_t link_missed_hits(int link_fd);

}  // namespace retsnoop
