// Kfuncs are not a stable interface: a kernel may add or drop a parameter of one (the kprobe
// session kfuncs took the program context from 7.0 on). libbpf refuses to load an object when a
// declared kfunc prototype differs from the kernel's, even for a weak extern whose program is
// not loaded. The BPF side passes every argument any kernel takes; before load, each declared
// prototype is cut or extended to the running kernel's parameter count, so one object loads on
// both sides of the change.
#pragma once

#include <string>
#include <vector>

struct btf;

namespace retsnoop {

struct KfuncProtoChange {
  std::string name;
  unsigned declared_params = 0;
  unsigned kernel_params = 0;
};

// Rewrites, in an object's BTF (after open, before load), each extern kfunc whose parameter
// count differs from the one of the same name in kernel. Parameters are dropped from the end, or
// added as pointers (the only kind the BPF side passes beyond a kernel's count). Returns what
// changed; throws UserError when a prototype cannot be matched (a kernel parameter that is not a
// pointer where ours has none).
std::vector<KfuncProtoChange> match_kfunc_protos(btf* declared, const btf* kernel);

}  // namespace retsnoop
