#include "attach/kprobe_multi_link.h"

#include <bpf/bpf.h>

namespace retsnoop {

bpf_attach_type multi_link_attach_type(MultiLinkKind kind) {
  return kind == MultiLinkKind::Session ? BPF_TRACE_KPROBE_SESSION : BPF_TRACE_KPROBE_MULTI;
}

int create_multi_link(int prog_fd, MultiLinkKind kind, const MultiLinkTargets& targets) {
  LIBBPF_OPTS(bpf_link_create_opts, opts);
  opts.kprobe_multi.flags = kind == MultiLinkKind::Return ? BPF_F_KPROBE_MULTI_RETURN : 0;
  opts.kprobe_multi.cnt = static_cast<uint32_t>(targets.cnt);
  opts.kprobe_multi.addrs = targets.addrs;
  // libbpf only reads the names; its field lacks the inner const.
  opts.kprobe_multi.syms = const_cast<const char**>(targets.syms);
  opts.kprobe_multi.cookies = targets.cookies;
  return bpf_link_create(prog_fd, 0, multi_link_attach_type(kind), &opts);
}

}  // namespace retsnoop
