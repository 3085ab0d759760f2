// Raw bpf() calls for the reproducer. No libbpf on purpose: libbpf would probe features and
// retry with other attributes, adding syscalls that show up in traces; one call here is exactly
// one bpf() syscall.
#pragma once

#include <linux/bpf.h>

#include <cstdint>

namespace simfail {

// Each returns a new fd (or 0 for commands without one) on success, -errno on failure.
int bpf_map_create(uint32_t type, uint32_t key_size, uint32_t value_size, uint32_t max_entries,
                   uint32_t flags = 0);
int bpf_map_lookup(int map_fd, const void* key, void* value);
int bpf_prog_load_trivial(const char* name);

}  // namespace simfail
