// Multi-kprobe links as bare fds, through libbpf's bpf_link_create(): the feature probes own no
// bpf_program, and the three kinds differ only in attach type and flags.
#pragma once

#include <linux/bpf.h>
#include <linux/types.h>

#include <cstddef>
#include <cstdint>

namespace retsnoop {

enum class MultiLinkKind {
  Entry,    // kprobe.multi
  Return,   // kretprobe.multi
  Session,  // the program runs at entry and again at return
};

struct MultiLinkTargets {
  const unsigned long* addrs = nullptr;  // either addresses
  const char* const* syms = nullptr;     // or names
  const __u64* cookies = nullptr;
  size_t cnt = 0;
};

// The attach type a program must be loaded with to make links of this kind.
bpf_attach_type multi_link_attach_type(MultiLinkKind kind);

// The link fd, or -errno.
int create_multi_link(int prog_fd, MultiLinkKind kind, const MultiLinkTargets& targets);

}  // namespace retsnoop
