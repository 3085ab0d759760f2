#include "symbolize/dwarf_btf.h"

#include <bpf/btf.h>
#include <dwarf.h>

#include <cerrno>
#include <vector>

namespace retsnoop {

namespace {

// Pointers are followed this deep for the pointee's layout (a struct's members, an array's
// elements); beyond, a struct is a forward declaration and the pointer an address.
constexpr int kMaxDepth = 4;
// Bounds on what a crafted file can make retsnoop build per type.
constexpr size_t kMaxMembers = 256;
constexpr size_t kMaxEnumerators = 1024;
constexpr int kMaxTypes = 4096;

const char* die_name(Dwarf_Die* die) {
  Dwarf_Attribute attr;
  const char* name = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_name, &attr));
  return name ? name : "";
}

bool udata(Dwarf_Die* die, int at, Dwarf_Word& out) {
  Dwarf_Attribute attr;
  return dwarf_attr_integrate(die, at, &attr) && dwarf_formudata(&attr, &out) == 0;
}

bool ref(Dwarf_Die* die, int at, Dwarf_Die* out) {
  Dwarf_Attribute attr;
  return dwarf_attr_integrate(die, at, &attr) && dwarf_formref_die(&attr, out);
}

// The children of die with tag, up to max.
std::vector<Dwarf_Die> children(Dwarf_Die* die, int tag, size_t max) {
  std::vector<Dwarf_Die> out;
  Dwarf_Die child;
  if (dwarf_child(die, &child) != 0) return out;
  do {
    if (dwarf_tag(&child) == tag) out.push_back(child);
  } while (out.size() < max && dwarf_siblingof(&child, &child) == 0);
  return out;
}

// The declaration whose parameters a definition has: an out-of-line copy of an inline function
// names its abstract instance, a C++ definition its declaration.
Dwarf_Die declaration_of(Dwarf_Die* fn) {
  Dwarf_Die d = *fn;
  for (int i = 0; i < 4; ++i) {
    Dwarf_Die next;
    if (!ref(&d, DW_AT_abstract_origin, &next) && !ref(&d, DW_AT_specification, &next)) break;
    d = next;
  }
  return d;
}

}  // namespace

int DwarfBtfBuilder::index_type() {
  if (!index_type_) index_type_ = btf__add_int(btf_, "unsigned int", 4, 0);
  return index_type_;
}

int DwarfBtfBuilder::base(Dwarf_Die* die) {
  Dwarf_Word enc = 0, size = 0;
  if (!udata(die, DW_AT_encoding, enc) || !udata(die, DW_AT_byte_size, size)) return -EINVAL;
  const char* name = *die_name(die) ? die_name(die) : "int";
  switch (enc) {
    case DW_ATE_float: return btf__add_float(btf_, name, size);
    case DW_ATE_boolean: return btf__add_int(btf_, name, size, BTF_INT_BOOL);
    case DW_ATE_signed: return btf__add_int(btf_, name, size, BTF_INT_SIGNED);
    case DW_ATE_signed_char: return btf__add_int(btf_, name, size, BTF_INT_SIGNED | BTF_INT_CHAR);
    case DW_ATE_unsigned_char: return btf__add_int(btf_, name, size, BTF_INT_CHAR);
    default: return btf__add_int(btf_, name, size, 0);
  }
}

int DwarfBtfBuilder::pointer(Dwarf_Die* die, int depth) {
  Dwarf_Die target;
  int pointee = 0;
  if (ref(die, DW_AT_type, &target) && depth < kMaxDepth) pointee = type_id(&target, depth + 1);
  if (pointee < 0) pointee = 0;  // an inexpressible pointee: the address alone
  int tagged = btf__add_type_tag(btf_, "user", pointee);
  return tagged < 0 ? tagged : btf__add_ptr(btf_, tagged);
}

// Member types go in first: a struct's fields must follow it directly. A struct met again
// inside its own members (through a pointer) is a forward declaration there.
int DwarfBtfBuilder::composite(Dwarf_Die* die, int depth) {
  bool is_union = dwarf_tag(die) == DW_TAG_union_type;
  Dwarf_Off off = dwarf_dieoffset(die);
  Dwarf_Word size = 0;
  bool declared = dwarf_hasattr_integrate(die, DW_AT_declaration);
  if (declared || in_progress_.count(off) || depth >= kMaxDepth ||
      !udata(die, DW_AT_byte_size, size))
    return btf__add_fwd(btf_, die_name(die), is_union ? BTF_FWD_UNION : BTF_FWD_STRUCT);
  in_progress_.insert(off);
  struct Field {
    const char* name;
    int type;
    Dwarf_Word bit_off, bit_size;
  };
  std::vector<Field> fields;
  for (Dwarf_Die& m : children(die, DW_TAG_member, kMaxMembers)) {
    Dwarf_Die mt;
    Dwarf_Word byte_off = 0, bit_off = 0, bit_size = 0;
    int id = ref(&m, DW_AT_type, &mt) ? type_id(&mt, depth + 1) : -EINVAL;
    if (id < 0) continue;  // a member that cannot be expressed is left out
    if (!udata(&m, DW_AT_data_bit_offset, bit_off)) {
      udata(&m, DW_AT_data_member_location, byte_off);
      bit_off = byte_off * 8;
    }
    udata(&m, DW_AT_bit_size, bit_size);
    fields.push_back({die_name(&m), id, bit_off, bit_size});
  }
  in_progress_.erase(off);
  int id = is_union ? btf__add_union(btf_, die_name(die), size)
                    : btf__add_struct(btf_, die_name(die), size);
  for (const Field& f : fields) {
    if (id < 0) break;
    if (btf__add_field(btf_, f.name, f.type, f.bit_off, f.bit_size) < 0) return -EINVAL;
  }
  return id;
}

int DwarfBtfBuilder::enumeration(Dwarf_Die* die) {
  Dwarf_Word size = 4;
  udata(die, DW_AT_byte_size, size);
  if (size > 4) return btf__add_int(btf_, die_name(die), size, 0);
  std::vector<std::pair<const char*, int64_t>> values;
  for (Dwarf_Die& e : children(die, DW_TAG_enumerator, kMaxEnumerators)) {
    Dwarf_Attribute attr;
    Dwarf_Sword v = 0;
    if (dwarf_attr(&e, DW_AT_const_value, &attr) && dwarf_formsdata(&attr, &v) == 0)
      values.emplace_back(die_name(&e), v);
  }
  int id = btf__add_enum(btf_, die_name(die), size);
  for (const auto& [name, v] : values) {
    if (id < 0 || btf__add_enum_value(btf_, name, v) < 0) break;
  }
  return id;
}

int DwarfBtfBuilder::array(Dwarf_Die* die, int depth) {
  Dwarf_Die elem;
  int elem_id = ref(die, DW_AT_type, &elem) ? type_id(&elem, depth + 1) : -EINVAL;
  if (elem_id < 0) return elem_id;
  Dwarf_Word count = 0, upper = 0;
  std::vector<Dwarf_Die> ranges = children(die, DW_TAG_subrange_type, 1);
  if (!ranges.empty() && !udata(&ranges[0], DW_AT_count, count) &&
      udata(&ranges[0], DW_AT_upper_bound, upper))
    count = upper + 1;
  int index = index_type();
  return index < 0 ? index : btf__add_array(btf_, index, elem_id, uint32_t(count));
}

// Typedefs keep their name; qualifiers are dropped (a const char * reads as a char *).
int DwarfBtfBuilder::referenced(Dwarf_Die* die, int depth) {
  Dwarf_Die target;
  int id = ref(die, DW_AT_type, &target) ? type_id(&target, depth) : 0;
  if (id < 0 || dwarf_tag(die) != DW_TAG_typedef) return id;
  return btf__add_typedef(btf_, die_name(die), id);
}

int DwarfBtfBuilder::type_id(Dwarf_Die* die, int depth) {
  Dwarf_Off off = dwarf_dieoffset(die);
  if (auto it = ids_.find(off); it != ids_.end()) return it->second;
  if (btf__type_cnt(btf_) > kMaxTypes) return -E2BIG;
  int id;
  switch (dwarf_tag(die)) {
    case DW_TAG_base_type: id = base(die); break;
    case DW_TAG_pointer_type:
    case DW_TAG_reference_type:
    case DW_TAG_rvalue_reference_type: id = pointer(die, depth); break;
    case DW_TAG_structure_type:
    case DW_TAG_class_type:
    case DW_TAG_union_type: id = composite(die, depth); break;
    case DW_TAG_enumeration_type: id = enumeration(die); break;
    case DW_TAG_array_type: id = array(die, depth); break;
    case DW_TAG_typedef:
    case DW_TAG_const_type:
    case DW_TAG_volatile_type:
    case DW_TAG_restrict_type:
    case DW_TAG_atomic_type: id = referenced(die, depth); break;
    default: id = -EINVAL;  // functions (behind pointers: addresses), vectors, and the like
  }
  // A forward declaration made for a struct met inside itself is not its final form.
  if (id >= 0 && !in_progress_.count(off)) ids_[off] = id;
  return id;
}

int DwarfBtfBuilder::add_func(Dwarf_Die* fn, const std::string& name) {
  Dwarf_Die decl = declaration_of(fn);
  Dwarf_Die rt;
  int ret = ref(&decl, DW_AT_type, &rt) ? type_id(&rt, 0) : 0;
  if (ret < 0) ret = 0;  // the prototype's return type is not what -A shows
  struct Param {
    const char* name;
    int type;
  };
  std::vector<Param> params;
  for (Dwarf_Die& p : children(&decl, DW_TAG_formal_parameter, 64)) {
    Dwarf_Die pt;
    int id = ref(&p, DW_AT_type, &pt) ? type_id(&pt, 0) : -EINVAL;
    if (id < 0) return id;
    params.push_back({die_name(&p), id});
  }
  bool variadic = !children(&decl, DW_TAG_unspecified_parameters, 1).empty();
  int proto = btf__add_func_proto(btf_, ret);
  if (proto < 0) return proto;
  for (const Param& p : params) {
    if (int err = btf__add_func_param(btf_, p.name, p.type); err < 0) return err;
  }
  if (variadic) {
    if (int err = btf__add_func_param(btf_, "", 0); err < 0) return err;
  }
  return btf__add_func(btf_, name.c_str(), BTF_FUNC_GLOBAL, proto);
}

}  // namespace retsnoop
