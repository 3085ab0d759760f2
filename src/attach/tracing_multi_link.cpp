#include "attach/tracing_multi_link.h"

#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstring>

namespace retsnoop {

namespace {

// The link_create member of union bpf_attr with its tracing_multi variant: the common fields,
// then the variant where every link type has its own.
struct TracingMultiAttr {
  uint32_t prog_fd;
  uint32_t target_fd;
  uint32_t attach_type;
  uint32_t flags;
  uint64_t ids;      // pointer to the BTF ids
  uint64_t cookies;  // pointer to a cookie per id
  uint32_t cnt;
};
static_assert(offsetof(TracingMultiAttr, ids) == 16 && offsetof(TracingMultiAttr, cnt) == 32,
              "the kernel's layout: the variant starts after four 32-bit fields");

}  // namespace

int create_tracing_multi_link(int prog_fd, bpf_attach_type type, std::span<const uint32_t> btf_ids,
                              std::span<const uint64_t> cookies) {
  if (btf_ids.size() != cookies.size() || btf_ids.empty()) return -EINVAL;
  union bpf_attr attr;
  std::memset(&attr, 0, sizeof(attr));
  static_assert(sizeof(TracingMultiAttr) <= sizeof(attr.link_create));
  TracingMultiAttr multi{.prog_fd = uint32_t(prog_fd),
                         .target_fd = 0,
                         .attach_type = uint32_t(type),
                         .flags = 0,
                         .ids = reinterpret_cast<uintptr_t>(btf_ids.data()),
                         .cookies = reinterpret_cast<uintptr_t>(cookies.data()),
                         .cnt = uint32_t(btf_ids.size())};
  std::memcpy(&attr.link_create, &multi, sizeof(multi));
  long fd = syscall(__NR_bpf, BPF_LINK_CREATE, &attr, sizeof(attr));
  return fd < 0 ? -errno : int(fd);
}

}  // namespace retsnoop
