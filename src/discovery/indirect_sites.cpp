#include "discovery/indirect_sites.h"

#include <capstone/capstone.h>

#include <algorithm>
#include <array>
#include <limits>
#include <optional>

#include "discovery/symbol_name.h"

namespace retsnoop {

namespace {

struct X86Reg {
  x86_reg id;
  std::string_view name;  // as a thunk's name ends
  uint8_t slot;           // in struct pt_regs: r15, r14, r13, r12, bp, bx, r11, r10, r9, r8, ax..di
};

constexpr std::array<X86Reg, 15> kX86Regs = {{
    {X86_REG_R15, "r15", 0},
    {X86_REG_R14, "r14", 1},
    {X86_REG_R13, "r13", 2},
    {X86_REG_R12, "r12", 3},
    {X86_REG_RBP, "rbp", 4},
    {X86_REG_RBX, "rbx", 5},
    {X86_REG_R11, "r11", 6},
    {X86_REG_R10, "r10", 7},
    {X86_REG_R9, "r9", 8},
    {X86_REG_R8, "r8", 9},
    {X86_REG_RAX, "rax", 10},
    {X86_REG_RCX, "rcx", 11},
    {X86_REG_RDX, "rdx", 12},
    {X86_REG_RSI, "rsi", 13},
    {X86_REG_RDI, "rdi", 14},
}};

// Retpolines and call depth tracking thunks: a call or jump to one is an indirect branch through
// the register its name ends with.
constexpr std::array<std::string_view, 3> kThunkPrefixes = {
    "__x86_indirect_thunk_", "__x86_indirect_call_thunk_", "__x86_indirect_jump_thunk_"};

std::optional<uint8_t> x86_slot(unsigned reg) {
  auto it = std::find_if(kX86Regs.begin(), kX86Regs.end(),
                         [&](const X86Reg& r) { return unsigned(r.id) == reg; });
  if (it == kX86Regs.end()) return std::nullopt;
  return it->slot;
}

std::optional<uint8_t> thunk_slot(std::string_view name) {
  for (std::string_view prefix : kThunkPrefixes) {
    if (!name.starts_with(prefix)) continue;
    name.remove_prefix(prefix.size());
    auto it = std::find_if(kX86Regs.begin(), kX86Regs.end(),
                           [&](const X86Reg& r) { return r.name == name; });
    if (it != kX86Regs.end()) return it->slot;
  }
  return std::nullopt;
}

// An x86-64 call or jmp: through a register, register + displacement, or a thunk.
void x86_site(const cs_insn& insn, const SymbolAt& symbol_at, SiteDecode& out) {
  if (insn.id != X86_INS_CALL && insn.id != X86_INS_JMP) return;
  const cs_x86& x = insn.detail->x86;
  if (x.op_count != 1) return;
  const cs_x86_op& op = x.operands[0];
  std::optional<uint8_t> slot;
  IndirectSite site{.addr = insn.address};
  if (op.type == X86_OP_IMM) {
    slot = thunk_slot(symbol_at(uint64_t(op.imm)));
    if (!slot) return;  // a direct branch
  } else if (op.type == X86_OP_REG) {
    slot = x86_slot(op.reg);
  } else if (op.type == X86_OP_MEM && op.mem.index == X86_REG_INVALID &&
             op.mem.segment == X86_REG_INVALID &&
             op.mem.disp >= std::numeric_limits<int32_t>::min() &&
             op.mem.disp <= std::numeric_limits<int32_t>::max()) {
    slot = x86_slot(op.mem.base);
    site.mem = true;
    site.disp = int32_t(op.mem.disp);
  }
  if (!slot) {
    ++out.unsupported;
    return;
  }
  site.reg = *slot;
  out.sites.push_back(site);
}

std::optional<uint8_t> arm64_slot(unsigned reg) {
  if (reg >= ARM64_REG_X0 && reg <= ARM64_REG_X28) return uint8_t(reg - ARM64_REG_X0);
  if (reg == ARM64_REG_X29) return 29;
  if (reg == ARM64_REG_X30) return 30;
  return std::nullopt;
}

// An arm64 blr or br, whose one operand is the register.
void arm64_site(const cs_insn& insn, SiteDecode& out) {
  if (insn.id != ARM64_INS_BLR && insn.id != ARM64_INS_BR) return;
  const cs_arm64& a = insn.detail->arm64;
  std::optional<uint8_t> slot;
  if (a.op_count == 1 && a.operands[0].type == ARM64_OP_REG) slot = arm64_slot(a.operands[0].reg);
  if (!slot) {
    ++out.unsupported;
    return;
  }
  out.sites.push_back({.addr = insn.address, .reg = *slot});
}

}  // namespace

SiteDecode decode_indirect_sites(const BranchDecoder& dec, std::span<const uint8_t> code,
                                 uint64_t addr, const SymbolAt& symbol_at) {
  SiteDecode out;
  dec.each_insn(code, addr, [&](const cs_insn& insn) {
    if (dec.arch() == CodeArch::X86_64)
      x86_site(insn, symbol_at, out);
    else
      arm64_site(insn, out);
  });
  return out;
}

IndirectSitePlan find_indirect_sites(std::span<const KSym* const> fns, const CalleeFinder& finder,
                                     size_t max_sites) {
  const Kallsyms& ksyms = finder.ksyms();
  SymbolAt symbol_at = [&](uint64_t a) -> std::string_view {
    const KSym* s = ksyms.find_by_addr(a);
    return s && s->addr == a ? s->name() : std::string_view();
  };
  IndirectSitePlan plan;
  for (const KSym* fn : fns) {
    std::optional<std::vector<uint8_t>> code = finder.code(*fn);
    if (!code) continue;  // the callee walk reports it
    SiteDecode d = decode_indirect_sites(finder.decoder(), *code, fn->addr, symbol_at);
    plan.unsupported += d.unsupported;
    for (const IndirectSite& s : d.sites) {
      if (plan.sites.size() >= max_sites) {
        ++plan.left_out;
        continue;
      }
      plan.sites.push_back({qualified_name(fn->module(), fn->name()), fn->addr, s});
    }
  }
  return plan;
}

}  // namespace retsnoop
