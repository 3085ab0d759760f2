// Multi-kprobe links created with the bpf() syscall itself: libbpf 1.1 cannot create the kprobe
// session links of Linux 6.10, and one way of creating all three kinds keeps them alike.
#pragma once

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
  const uint64_t* cookies = nullptr;
  size_t cnt = 0;
};

// The attach type a program must be loaded with to make links of this kind.
uint32_t multi_link_attach_type(MultiLinkKind kind);

// The link fd, or -errno.
int create_multi_link(int prog_fd, MultiLinkKind kind, const MultiLinkTargets& targets);

}  // namespace retsnoop
