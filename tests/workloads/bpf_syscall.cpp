#include "bpf_syscall.h"

#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace simfail {
namespace {

int sys_bpf(bpf_cmd cmd, bpf_attr& attr) {
  long ret = syscall(__NR_bpf, cmd, &attr, sizeof(attr));
  return ret < 0 ? -errno : static_cast<int>(ret);
}

uint64_t ptr_to_u64(const void* ptr) { return reinterpret_cast<uintptr_t>(ptr); }

}  // namespace

int bpf_map_create(uint32_t type, uint32_t key_size, uint32_t value_size, uint32_t max_entries,
                   uint32_t flags, const char* name) {
  bpf_attr attr{};
  std::strncpy(attr.map_name, name, sizeof(attr.map_name) - 1);
  attr.map_type = type;
  attr.key_size = key_size;
  attr.value_size = value_size;
  attr.max_entries = max_entries;
  attr.map_flags = flags;
  return sys_bpf(BPF_MAP_CREATE, attr);
}

int bpf_map_lookup(int map_fd, const void* key, void* value) {
  bpf_attr attr{};
  attr.map_fd = map_fd;
  attr.key = ptr_to_u64(key);
  attr.value = ptr_to_u64(value);
  return sys_bpf(BPF_MAP_LOOKUP_ELEM, attr);
}

int bpf_prog_load_filter(const char* name, std::span<const bpf_insn> insns, std::span<char> log) {
  static const char license[] = "GPL";
  bpf_attr attr{};
  attr.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
  attr.insns = ptr_to_u64(insns.data());
  attr.insn_cnt = static_cast<uint32_t>(insns.size());
  attr.license = ptr_to_u64(license);
  strncpy(attr.prog_name, name, sizeof(attr.prog_name) - 1);
  if (!log.empty()) {
    attr.log_level = 1;
    attr.log_buf = ptr_to_u64(log.data());
    attr.log_size = static_cast<uint32_t>(log.size());
  }
  return sys_bpf(BPF_PROG_LOAD, attr);
}

}  // namespace simfail
