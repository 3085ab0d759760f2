// A libbpf link that detaches itself when dropped.
#pragma once

#include <bpf/libbpf.h>

#include <memory>

namespace retsnoop {

struct LinkDeleter {
  void operator()(bpf_link* link) const { bpf_link__destroy(link); }
};
using LinkPtr = std::unique_ptr<bpf_link, LinkDeleter>;

}  // namespace retsnoop
