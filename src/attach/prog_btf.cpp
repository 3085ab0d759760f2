#include "attach/prog_btf.h"

#include <bpf/bpf.h>

#include <algorithm>
#include <set>

namespace retsnoop {

namespace {

// Where the program's subprograms start: the targets of its BPF-to-BPF calls, in layout order,
// after the main function at 0.
std::vector<uint32_t> subprog_starts(std::span<const bpf_insn> insns) {
  std::set<uint32_t> starts{0};
  for (size_t i = 0; i < insns.size(); ++i) {
    const bpf_insn& in = insns[i];
    if (in.code == (BPF_JMP | BPF_CALL) && in.src_reg == BPF_PSEUDO_CALL)
      starts.insert(uint32_t(int64_t(i) + 1 + in.imm));
  }
  return {starts.begin(), starts.end()};
}

}  // namespace

CopyFuncInfo copy_func_info(int template_fd, std::span<const bpf_insn> insns) {
  CopyFuncInfo out;
  std::vector<uint32_t> starts = subprog_starts(insns);
  std::vector<bpf_func_info> kernel(starts.size());
  bpf_prog_info info{};
  uint32_t len = sizeof(info);
  info.nr_func_info = uint32_t(kernel.size());
  info.func_info_rec_size = sizeof(bpf_func_info);
  info.func_info = reinterpret_cast<uintptr_t>(kernel.data());
  // A count that differs means a layout this matching does not know: copies go without BTF.
  if (bpf_prog_get_info_by_fd(template_fd, &info, &len) || info.nr_func_info != starts.size() ||
      info.func_info_rec_size != sizeof(bpf_func_info) || !info.btf_id)
    return out;
  OwnedFd btf(bpf_btf_get_fd_by_id(info.btf_id));
  if (btf.get() < 0) return out;
  // The kernel's records hold its own offsets after rewriting, in the same order as ours.
  for (size_t i = 0; i < starts.size(); ++i) kernel[i].insn_off = starts[i];
  out.btf = std::move(btf);
  out.funcs = std::move(kernel);
  return out;
}

uint32_t prog_verified_insns(int prog_fd) {
  bpf_prog_info info{};
  uint32_t len = sizeof(info);
  if (bpf_prog_get_info_by_fd(prog_fd, &info, &len)) return 0;
  return info.verified_insns;
}

}  // namespace retsnoop
