// Raw bpf() calls for the reproducer. No libbpf on purpose: libbpf would probe features and
// retry with other attributes, adding syscalls that show up in traces; one call here is exactly
// one bpf() syscall.
#pragma once

#include <linux/bpf.h>

#include <cstdint>
#include <span>

namespace simfail {

// Each returns a new fd (or 0 for commands without one) on success, -errno on failure.
int bpf_map_create(uint32_t type, uint32_t key_size, uint32_t value_size, uint32_t max_entries,
                   uint32_t flags = 0, const char* name = "");
int bpf_map_lookup(int map_fd, const void* key, void* value);
// A GPL socket filter of these instructions; with a log buffer, the verifier explains into it.
int bpf_prog_load_filter(const char* name, std::span<const bpf_insn> insns,
                         std::span<char> log = {});

}  // namespace simfail
