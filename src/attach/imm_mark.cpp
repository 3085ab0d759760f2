#include "attach/imm_mark.h"

#include <stdexcept>

namespace retsnoop {

namespace {

// An ld_imm64 spans two instructions, the value's low half in the first's imm, the high half in
// the second's.
bool loads(const bpf_insn* at, uint64_t value) {
  return at[0].code == (BPF_LD | BPF_IMM | BPF_DW) && at[0].src_reg == 0 &&
         uint32_t(at[0].imm) == uint32_t(value) && uint32_t(at[1].imm) == uint32_t(value >> 32);
}

}  // namespace

std::vector<bpf_insn> with_mark_replaced(std::span<const bpf_insn> insns, uint64_t mark,
                                         uint64_t value) {
  std::vector<bpf_insn> out(insns.begin(), insns.end());
  size_t found = 0;
  for (size_t i = 0; i + 1 < out.size(); ++i) {
    if (!loads(&out[i], mark)) continue;
    out[i].imm = int32_t(uint32_t(value));
    out[i + 1].imm = int32_t(uint32_t(value >> 32));
    ++found;
    ++i;  // the second half is no instruction of its own
  }
  if (found != 1) throw std::logic_error("program template: its mark is not loaded exactly once");
  return out;
}

}  // namespace retsnoop
