// Programs that learn an id at load rather than from a link cookie: a template whose one 64-bit
// immediate load of a mark constant (RS_PROBE_ID_MARK, RS_FUNC_MARK) each copy replaces by its
// own value.
#pragma once

#include <linux/bpf.h>

#include <cstdint>
#include <span>
#include <vector>

namespace retsnoop {

// insns with value in place of mark; throws std::logic_error unless exactly one ld_imm64 loads
// mark (the template was built otherwise).
std::vector<bpf_insn> with_mark_replaced(std::span<const bpf_insn> insns, uint64_t mark,
                                         uint64_t value);

}  // namespace retsnoop
