// -A: which arguments of a traced function are captured, and how, decided from its BTF
// prototype. The same plan drives the BPF side (struct rs_func_args) and the renderer, which
// needs each argument's name and BTF type to print the captured bytes.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bpf/abi.h"
#include "discovery/tp_format.h"

struct btf;

namespace retsnoop {

// Limits of -C args.*, checked at start-up and enforced again in BPF.
struct ArgLimits {
  uint32_t max_total_args_size = 3072;  // per call, all arguments' data together
  uint32_t max_sized_arg_size = 256;    // bytes read at one pointer to a sized type
  uint32_t max_str_arg_size = 256;      // bytes of one string, NUL included
  bool capture_raw_ptrs = false;        // print the pointer value next to &{...}
};

// Register slots the calling convention passes arguments in: 6 on x86-64, 8 on arm64. Slots
// from there up to RS_MAX_ARG_SLOTS are the stack words of further arguments.
uint32_t arg_register_slots();

struct ArgInfo {
  std::string name;      // BTF parameter name; "argN" when unnamed or without BTF
  uint32_t type_id = 0;  // BTF type of the parameter; 0: raw register slot, no type
  rs_arg_spec spec{};    // what BPF captures for it
};

struct FuncArgs {
  const struct btf* btf = nullptr;  // where type ids point (owned by KernelBtf); null: raw
  // Owns btf when nothing else does: a user-space function's types, made from its DWARF.
  std::shared_ptr<const struct btf> btf_owner;
  std::vector<ArgInfo> args;  // captured arguments, in order
  bool variadic = false;      // "..." follows the captured arguments: not captured
  uint32_t uncaptured = 0;    // parameters that are in no slot we read
  std::string raw_reason;     // non-empty when falling back to raw slots: why (for -v)
  // A classic tracepoint's fields: when set, what is shown, each cut from the bytes of the
  // captured argument it names (args are then the record and its __data_loc fields).
  std::vector<TpField> tp_fields;
  // A system call's wrapper: the slots are the call's arguments, read from the saved user
  // registers its first argument points to (rs_slots_from).
  bool syscall_regs = false;

  // The BPF map value for this function.
  rs_func_args to_bpf() const;
};

// The plan for function proto_id (a BTF_KIND_FUNC or BTF_KIND_FUNC_PROTO id) of btf; raw slots
// with a reason when the id is not a prototype or a parameter's type is unusable.
FuncArgs args_from_prototype(const struct btf* btf, uint32_t func_or_proto_id);
// Raw register slots arg0..argN-1, for functions without usable BTF.
FuncArgs raw_func_args(std::string reason);
// Argument name of type type_id (of btf) in slot slot, when that type travels in one slot: a
// scalar or a pointer, which is what every system call argument is. type_id 0: untyped.
std::optional<ArgInfo> arg_in_slot(const struct btf* btf, std::string name, uint32_t type_id,
                                   uint32_t slot);

}  // namespace retsnoop
