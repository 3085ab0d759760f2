#include "symbolize/dwarf_ret_kind.h"

#include <dwarf.h>

namespace retsnoop {

namespace {

// Typedef and qualifier chains of real programs are a few links long; a crafted file may loop.
constexpr int kMaxTypeLinks = 32;

std::optional<RetKind> signed_kind(Dwarf_Word size) {
  switch (size) {
    case 1: return RetKind::Neg8;
    case 2: return RetKind::Neg16;
    case 4: return RetKind::Neg32;
    case 8: return RetKind::Neg64;
    default: return RetKind::Unsigned;  // 128-bit results carry no failure convention
  }
}

std::optional<RetKind> base_kind(Dwarf_Die* type) {
  Dwarf_Attribute attr;
  Dwarf_Word encoding = 0, size = 0;
  if (!dwarf_attr(type, DW_AT_encoding, &attr) || dwarf_formudata(&attr, &encoding))
    return std::nullopt;
  if (encoding == DW_ATE_boolean) return RetKind::False;
  if (encoding != DW_ATE_signed && encoding != DW_ATE_signed_char) return RetKind::Unsigned;
  if (!dwarf_attr(type, DW_AT_byte_size, &attr) || dwarf_formudata(&attr, &size))
    return std::nullopt;
  return signed_kind(size);
}

// False when die has no DW_AT_type: void, for a function or a qualifier.
bool referenced_type(Dwarf_Die* die, Dwarf_Die* out) {
  Dwarf_Attribute attr;
  return dwarf_attr_integrate(die, DW_AT_type, &attr) && dwarf_formref_die(&attr, out);
}

}  // namespace

std::optional<RetKind> dwarf_ret_kind(Dwarf_Die* fn) {
  Dwarf_Die type;
  if (!referenced_type(fn, &type)) return RetKind::Void;
  for (int links = 0; links < kMaxTypeLinks; ++links) {
    switch (dwarf_tag(&type)) {
      case DW_TAG_typedef:
      case DW_TAG_const_type:
      case DW_TAG_volatile_type:
      case DW_TAG_restrict_type:
      case DW_TAG_atomic_type:
        if (!referenced_type(&type, &type)) return RetKind::Void;
        continue;
      case DW_TAG_enumeration_type:
        // An enumeration without its base type (older DWARF) is C's: unsigned unless a value
        // is negative, which its type does not tell; such results never fail here.
        if (!referenced_type(&type, &type)) return RetKind::Unsigned;
        continue;
      case DW_TAG_pointer_type: return RetKind::Ptr;
      case DW_TAG_base_type: return base_kind(&type);
      default: return RetKind::Unsigned;  // references, structs and unions by value
    }
  }
  return std::nullopt;
}

}  // namespace retsnoop
