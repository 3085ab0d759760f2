// An owned libbpf BTF object, freed with btf__free().
#pragma once

#include <bpf/btf.h>

#include <memory>

namespace retsnoop {

struct BtfFree {
  void operator()(struct btf* b) const { btf__free(b); }
};
using BtfPtr = std::unique_ptr<struct btf, BtfFree>;

}  // namespace retsnoop
