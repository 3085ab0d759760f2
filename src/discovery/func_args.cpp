#include "discovery/func_args.h"

#include <bpf/btf.h>

#include <algorithm>

#include "discovery/btf_types.h"

namespace retsnoop {

namespace {

// The architecture's calling convention, in one place.
#if defined(__aarch64__)
constexpr uint32_t kRegisterSlots = 8;
// AAPCS64 passes a 16-byte integer in an even-numbered register pair.
constexpr bool kPairsStartEven = true;
// AAPCS64 passes a composite over 16 bytes by reference: the slot holds its address.
constexpr bool kBigByValueInSlot = true;
#else
constexpr uint32_t kRegisterSlots = 6;
constexpr bool kPairsStartEven = false;
// SysV x86-64 copies a composite over 16 bytes onto the stack: no register holds it.
constexpr bool kBigByValueInSlot = false;
#endif
static_assert(kRegisterSlots <= RS_MAX_ARG_SLOTS);
// Slots past the registers are the caller's stack words, 8 bytes each, nearest the return
// address first: both conventions put a parameter that finds no register there, a 16-byte
// integer 16-byte aligned. The registers' count is even on both, so an even slot is aligned.

std::string slot_name(size_t i) { return "arg" + std::to_string(i); }

// How a parameter travels: in slots (nslots 0: not in integer registers at all).
struct Placement {
  rs_arg_spec spec{};
  uint32_t nslots = 1;
  bool int128 = false;
};

// What BPF reads at a pointer parameter, from the pointee's type.
Placement plan_pointer(const struct btf* btf, const struct btf_type* ptr) {
  Placement p;
  ResolvedType pointee = resolve_btf_type(btf, ptr->type);
  p.spec.flags = pointee.user ? RS_ARG_USER : 0;
  const struct btf_type* t = pointee.t;
  if (!t) return p;  // void *
  if (is_btf_char(btf, t)) {
    p.spec.kind = RS_ARG_STR;
    return p;
  }
  bool sized =
      btf_is_struct(t) || btf_is_union(t) || btf_is_int(t) || btf_is_any_enum(t) || btf_is_array(t);
  int64_t size = sized ? btf__resolve_size(btf, pointee.id) : 0;
  if (size > 0) {
    p.spec.kind = RS_ARG_PTR;
    p.spec.size = static_cast<uint32_t>(size);
  }
  return p;  // pointers to pointers, functions, FWD or empty types: the address only
}

Placement plan_by_value(const struct btf* btf, const ResolvedType& type) {
  const struct btf_type* t = type.t;
  Placement p;
  if (btf_is_ptr(t)) return plan_pointer(btf, t);
  if (btf_kind(t) == BTF_KIND_FLOAT) {
    p.nslots = 0;  // floating-point registers, which the capture does not read
    return p;
  }
  int64_t size = btf__resolve_size(btf, type.id);
  if (size > 16) {
    bool composite = btf_is_struct(t) || btf_is_union(t);
    if (!composite || !kBigByValueInSlot) {
      p.nslots = 0;
      return p;
    }
    p.spec.kind = RS_ARG_PTR;
    p.spec.size = static_cast<uint32_t>(size);
    return p;
  }
  p.nslots = size > 8 ? 2 : 1;
  p.int128 = btf_is_int(t) && size == 16;
  return p;
}

}  // namespace

uint32_t arg_register_slots() { return kRegisterSlots; }

rs_func_args FuncArgs::to_bpf() const {
  rs_func_args out{};
  out.cnt = static_cast<rs_u32>(std::min<size_t>(args.size(), RS_MAX_ARG_SLOTS));
  uint32_t end = 0;  // one past the last slot read
  for (uint32_t i = 0; i < out.cnt; ++i) {
    out.args[i] = args[i].spec;
    end = std::max<uint32_t>(end, args[i].spec.slot + args[i].spec.slots);
  }
  out.stack_slots = static_cast<rs_u16>(end > kRegisterSlots ? end - kRegisterSlots : 0);
  out.slots_from = syscall_regs ? RS_SLOTS_SYSCALL_REGS : RS_SLOTS_OWN;
  return out;
}

std::optional<ArgInfo> arg_in_slot(const struct btf* btf, std::string name, uint32_t type_id,
                                   uint32_t slot) {
  ArgInfo a{std::move(name), type_id, {}};
  a.spec.slot = static_cast<rs_u8>(slot);
  a.spec.slots = 1;
  if (!type_id) return a;
  ResolvedType type = resolve_btf_type(btf, type_id);
  if (!type.t) return std::nullopt;
  Placement p = plan_by_value(btf, type);
  if (p.nslots != 1 || (p.spec.kind == RS_ARG_PTR && !btf_is_ptr(type.t))) return std::nullopt;
  a.spec.kind = p.spec.kind;
  a.spec.flags = p.spec.flags;
  a.spec.size = p.spec.size;
  return a;
}

FuncArgs raw_func_args(std::string reason) {
  FuncArgs out;
  out.raw_reason = std::move(reason);
  for (uint32_t i = 0; i < kRegisterSlots; ++i) {
    ArgInfo a{slot_name(i), 0, {}};
    a.spec.kind = RS_ARG_REG;
    a.spec.slot = static_cast<rs_u8>(i);
    a.spec.slots = 1;
    out.args.push_back(std::move(a));
  }
  return out;
}

FuncArgs args_from_prototype(const struct btf* btf, uint32_t func_or_proto_id) {
  const struct btf_type* t = btf ? btf__type_by_id(btf, func_or_proto_id) : nullptr;
  if (t && btf_is_func(t)) t = btf__type_by_id(btf, t->type);
  if (!t || !btf_is_func_proto(t)) return raw_func_args("no BTF prototype");

  FuncArgs out;
  out.btf = btf;
  const struct btf_param* params = btf_params(t);
  uint32_t n = btf_vlen(t);
  uint32_t slot = 0;
  // x86-64 gives a later parameter a register a larger one found too few of, and a BPF
  // trampoline's context then no longer follows the slots: after a register left unused, the
  // rest is not captured. A struct copied onto the stack (x86-64, over 16 bytes), like any
  // stack parameter left out, moves the stack words of the parameters after it: those on the
  // stack are not captured either.
  bool slots_unsure = false;
  bool stack_unsure = false;
  for (uint32_t i = 0; i < n; ++i) {
    const btf_param& prm = params[i];
    if (i + 1 == n && prm.name_off == 0 && prm.type == 0) {
      out.variadic = true;
      break;
    }
    ResolvedType type = resolve_btf_type(btf, prm.type);
    if (!type.t) return raw_func_args("parameter " + std::to_string(i) + " has no usable type");
    Placement p = plan_by_value(btf, type);
    bool on_stack = slot + p.nslots > kRegisterSlots;
    if (on_stack && slot < kRegisterSlots) slots_unsure = true;
    if (p.int128 && (kPairsStartEven || on_stack)) slot += slot % 2;
    if (p.nslots == 0 || slots_unsure || (on_stack && stack_unsure) ||
        slot + p.nslots > RS_MAX_ARG_SLOTS) {
      ++out.uncaptured;
      stack_unsure |= on_stack || (p.nslots == 0 && btf_kind(type.t) != BTF_KIND_FLOAT);
      continue;
    }
    const char* name = btf__name_by_offset(btf, prm.name_off);
    ArgInfo a{*name ? name : slot_name(i), prm.type, p.spec};
    a.spec.slot = static_cast<rs_u8>(slot);
    a.spec.slots = static_cast<rs_u8>(p.nslots);
    slot += p.nslots;
    out.args.push_back(std::move(a));
  }
  return out;
}

}  // namespace retsnoop
