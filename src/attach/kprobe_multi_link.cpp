#include "attach/kprobe_multi_link.h"

#include <linux/bpf.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>

namespace retsnoop {

namespace {

// BPF_TRACE_KPROBE_SESSION (6.10), newer than the build host's UAPI header.
constexpr uint32_t kKprobeSessionAttachType = 56;

uint64_t ptr_to_u64(const void* p) { return reinterpret_cast<uintptr_t>(p); }

}  // namespace

uint32_t multi_link_attach_type(MultiLinkKind kind) {
  return kind == MultiLinkKind::Session ? kKprobeSessionAttachType
                                        : uint32_t{BPF_TRACE_KPROBE_MULTI};
}

int create_multi_link(int prog_fd, MultiLinkKind kind, const MultiLinkTargets& targets) {
  bpf_attr attr{};
  attr.link_create.prog_fd = prog_fd;
  attr.link_create.attach_type = multi_link_attach_type(kind);
  attr.link_create.kprobe_multi.flags =
      kind == MultiLinkKind::Return ? BPF_F_KPROBE_MULTI_RETURN : 0;
  attr.link_create.kprobe_multi.cnt = targets.cnt;
  attr.link_create.kprobe_multi.addrs = ptr_to_u64(targets.addrs);
  attr.link_create.kprobe_multi.syms = ptr_to_u64(targets.syms);
  attr.link_create.kprobe_multi.cookies = ptr_to_u64(targets.cookies);
  int fd = static_cast<int>(syscall(__NR_bpf, BPF_LINK_CREATE, &attr, sizeof(attr)));
  return fd < 0 ? -errno : fd;
}

}  // namespace retsnoop
