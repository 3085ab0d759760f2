#include "format/arg_value.h"

#include <bpf/btf.h>

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "discovery/btf_types.h"
#include "format/tp_field_value.h"

namespace retsnoop {

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
              "captured bytes and register slots are decoded as little-endian");

namespace {

// Nesting deeper than this is not printed ({...}): real kernel types stay far below it, and a
// malformed BTF cannot make the renderer recurse without end.
constexpr int kMaxDepth = 16;

using Bytes = std::span<const uint8_t>;
using Kind = ArgValue::Kind;

uint64_t load(Bytes b, size_t n) {
  uint64_t v = 0;
  std::memcpy(&v, b.data(), std::min({n, b.size(), sizeof(v)}));
  return v;
}

// nbits bits starting bit_off bits into b (little-endian bitfield layout); bits past b read as
// zero, since a malformed BTF's int may place its bits beyond its size.
uint64_t load_bits(Bytes b, uint32_t bit_off, uint32_t nbits) {
  unsigned __int128 v = 0;
  size_t first = bit_off / 8;
  if (first >= b.size()) return 0;
  size_t n = std::min<size_t>((bit_off % 8 + nbits + 7) / 8, b.size() - first);
  std::memcpy(&v, b.data() + first, std::min(n, sizeof(v)));
  v >>= bit_off % 8;
  return nbits >= 64 ? static_cast<uint64_t>(v) : static_cast<uint64_t>(v) & ((1ULL << nbits) - 1);
}

int64_t sign_extend(uint64_t v, uint32_t nbits) {
  if (nbits == 0 || nbits >= 64) return static_cast<int64_t>(v);
  uint64_t sign = 1ULL << (nbits - 1);
  return static_cast<int64_t>((v ^ sign) - sign);
}

std::string hex128(Bytes b) {
  uint64_t lo = load(b, 8), hi = load(b.subspan(8), 8);
  if (hi == 0) return arg_hex(lo);
  char buf[40];
  std::snprintf(buf, sizeof(buf), "0x%llx%016llx", static_cast<unsigned long long>(hi),
                static_cast<unsigned long long>(lo));
  return buf;
}

ArgValue make(Kind kind, uint64_t u = 0, std::string text = {}) {
  ArgValue v;
  v.kind = kind;
  v.u = u;
  v.text = std::move(text);
  return v;
}

// The enumerator of enum type t whose value equals the low nbits of raw; empty when none.
std::string enumerator_name(const struct btf* btf, const struct btf_type* t, uint64_t raw,
                            uint32_t nbits) {
  uint64_t mask = nbits >= 64 ? ~0ULL : (1ULL << nbits) - 1;
  for (int i = 0; i < btf_vlen(t); ++i) {
    uint64_t val;
    uint32_t name_off;
    if (btf_is_enum64(t)) {
      val = btf_enum64_value(btf_enum64(t) + i);
      name_off = btf_enum64(t)[i].name_off;
    } else {
      val = static_cast<uint64_t>(static_cast<int64_t>(btf_enum(t)[i].val));
      name_off = btf_enum(t)[i].name_off;
    }
    if (((val ^ raw) & mask) == 0) return btf__name_by_offset(btf, name_off);
  }
  return {};
}

class Decoder {
 public:
  Decoder(const struct btf* btf, const AddrNamer& name_addr) : btf_(btf), name_addr_(name_addr) {}

  // The value of type_id held in b. Scalars need all their bytes; structs, unions and arrays
  // print what b holds and are marked truncated when it ends early.
  ArgValue value(uint32_t type_id, Bytes b, int depth) const {
    ResolvedType r = resolve_btf_type(btf_, type_id);
    const struct btf_type* t = r.t;
    if (!t) return make(Kind::Raw, load(b, 8));
    if (btf_is_struct(t) || btf_is_union(t)) return record(t, b, depth);
    if (btf_is_array(t)) return array(t, b, depth);
    if (btf_is_ptr(t)) return pointer_field(t, load(b, 8));
    if (btf_is_int(t) && t->size == 16) return make(Kind::Wide, 0, hex128(b));
    if (btf_is_int(t)) {
      uint32_t bits = std::min<uint32_t>(btf_int_bits(t), t->size * 8);
      return scalar(r, load_bits(b, btf_int_offset(t), bits), bits);
    }
    if (btf_is_any_enum(t)) return scalar(r, load(b, t->size), t->size * 8);
    return make(Kind::Raw, load(b, t->size));  // floats: their bits
  }

 private:
  // An integer or enum of nbits bits whose bits are raw.
  ArgValue scalar(const ResolvedType& r, uint64_t raw, uint32_t nbits) const {
    const struct btf_type* t = r.t;
    if (btf_is_any_enum(t)) {
      std::string name = enumerator_name(btf_, t, raw, nbits);
      if (!name.empty()) return make(Kind::Enumerator, raw, std::move(name));
      if (!btf_kflag(t)) return make(Kind::Unsigned, raw);
    } else {
      uint8_t enc = btf_int_encoding(t);
      if (enc & BTF_INT_BOOL) return make(Kind::Bool, raw != 0);
      if (is_btf_char(btf_, t)) return make(Kind::Char, raw & 0xff);
      if (!(enc & BTF_INT_SIGNED)) return make(Kind::Unsigned, raw);
    }
    ArgValue v = make(Kind::Signed);
    v.s = sign_extend(raw, nbits);
    return v;
  }

  ArgValue pointer_field(const struct btf_type* ptr, uint64_t addr) const {
    ResolvedType pointee = resolve_btf_type(btf_, ptr->type);
    if (!pointee.t || !btf_is_func_proto(pointee.t)) return make(Kind::Address, addr);
    std::optional<std::string> name = addr && name_addr_ ? name_addr_(addr) : std::nullopt;
    return make(Kind::Symbol, addr, name.value_or(""));
  }

  ArgValue record(const struct btf_type* t, Bytes b, int depth) const {
    ArgValue v = make(Kind::Record);
    if (depth > kMaxDepth) {
      v.truncated = true;
      return v;
    }
    add_members(t, b, depth, v);
    return v;
  }

  // Members of t into out.fields; anonymous struct and union members are flattened into out,
  // as C names them.
  void add_members(const struct btf_type* t, Bytes b, int depth, ArgValue& out) const {
    const struct btf_member* m = btf_members(t);
    for (uint32_t i = 0; i < btf_vlen(t); ++i, ++m) {
      uint32_t bit_off = btf_member_bit_offset(t, i);
      uint32_t bitfield = btf_member_bitfield_size(t, i);
      const char* name = btf__name_by_offset(btf_, m->name_off);
      ResolvedType mt = resolve_btf_type(btf_, m->type);
      if (!mt.t) continue;
      ArgValue field;
      if (bitfield) {
        if ((bit_off + bitfield + 7) / 8 > b.size()) {
          out.truncated = true;
          continue;
        }
        field = scalar(mt, load_bits(b, bit_off, bitfield), bitfield);
      } else {
        int64_t size = btf__resolve_size(btf_, m->type);
        size_t off = bit_off / 8;
        bool composite = btf_is_struct(mt.t) || btf_is_union(mt.t) || btf_is_array(mt.t);
        bool whole = size >= 0 && off + static_cast<size_t>(size) <= b.size();
        if (size < 0 || (!whole && (!composite || off >= b.size()))) {
          out.truncated |= size >= 0;
          continue;
        }
        Bytes mb = b.subspan(off, std::min<size_t>(size, b.size() - off));
        bool anonymous = !*name && (btf_is_struct(mt.t) || btf_is_union(mt.t));
        if (anonymous) {
          if (depth + 1 > kMaxDepth) {
            out.truncated = true;
          } else {
            add_members(mt.t, mb, depth + 1, out);
            out.truncated |= !whole;
          }
          continue;
        }
        field = value(m->type, mb, depth + 1);
      }
      if (!field.is_zero()) out.fields.emplace_back(name, std::move(field));
    }
  }

  ArgValue array(const struct btf_type* t, Bytes b, int depth) const {
    const struct btf_array* arr = btf_array(t);
    ResolvedType elem = resolve_btf_type(btf_, arr->type);
    if (is_btf_char(btf_, elem.t)) return char_array(b, arr->nelems);
    ArgValue v = make(Kind::Array);
    int64_t es = btf__resolve_size(btf_, arr->type);
    if (depth > kMaxDepth) {
      v.truncated = true;
      return v;
    }
    if (es <= 0) return v;
    // Bounded by the captured bytes, whatever nelems claims.
    for (uint64_t i = 0; i < arr->nelems; ++i) {
      if ((i + 1) * es > b.size()) {
        v.truncated = true;
        break;
      }
      v.fields.emplace_back("", value(arr->type, b.subspan(i * es, es), depth + 1));
    }
    while (!v.fields.empty() && v.fields.back().second.is_zero()) v.fields.pop_back();
    return v;
  }

  static ArgValue char_array(Bytes b, uint32_t nelems) {
    Bytes held = b.first(std::min<size_t>(b.size(), nelems));
    auto nul = std::find(held.begin(), held.end(), 0);
    ArgValue v = make(Kind::String, 0, std::string(held.begin(), nul));
    v.truncated = nul == held.end() && held.size() < nelems;
    return v;
  }

  const struct btf* btf_;
  const AddrNamer& name_addr_;
};

// Register slots [first, first+n) as the bytes a by-value argument occupies.
std::vector<uint8_t> slot_bytes(const CapturedArgs& cap, uint32_t first, uint32_t n) {
  std::vector<uint8_t> out(n * 8);
  for (uint32_t i = 0; i < n && first + i < cap.slots.size(); ++i)
    std::memcpy(out.data() + i * 8, &cap.slots[first + i], 8);
  return out;
}

}  // namespace

ArgValue missing_value(uint64_t addr, int32_t len) {
  return make(Kind::Pointer, addr, len == RS_ARG_ERR_BUDGET ? kOverBudget : kUnreadable);
}

ArgValue string_value(uint64_t addr, Bytes data) {
  auto nul = std::find(data.begin(), data.end(), 0);
  ArgValue v = make(Kind::String, addr, std::string(data.begin(), nul));
  v.truncated = nul == data.end();
  return v;
}

std::string arg_hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof(buf), "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

ArgValue::ArgValue(const ArgValue&) = default;
ArgValue& ArgValue::operator=(const ArgValue&) = default;
ArgValue::~ArgValue() = default;

bool ArgValue::is_zero() const {
  if (truncated) return false;
  switch (kind) {
    case Kind::Signed: return s == 0;
    case Kind::Wide: return text == "0x0";
    case Kind::String: return text.empty();
    case Kind::Record:
    case Kind::Array: return fields.empty();
    case Kind::Pointer: return u == 0 && fields.empty() && text.empty();
    default: return u == 0;
  }
}

ArgValue decode_arg(const FuncArgs& plan, size_t i, const CapturedArgs& cap,
                    const AddrNamer& name_addr) {
  const ArgInfo& a = plan.args[i];
  uint64_t addr = a.spec.slot < cap.slots.size() ? cap.slots[a.spec.slot] : 0;
  if (!plan.btf || a.type_id == 0) return make(Kind::Raw, addr);
  int32_t len = i < cap.lens.size() ? cap.lens[i] : 0;
  Bytes data = i < cap.data.size() ? Bytes(cap.data[i]) : Bytes();
  data = data.first(std::min<size_t>(data.size(), std::max(len, 0)));
  Decoder dec(plan.btf, name_addr);
  switch (a.spec.kind) {
    case RS_ARG_STR:
      if (addr == 0) return make(Kind::Address);
      return len < 0 ? missing_value(addr, len) : string_value(addr, data);
    case RS_ARG_PTR: {
      if (len < 0) return missing_value(addr, len);
      ResolvedType r = resolve_btf_type(plan.btf, a.type_id);
      if (r.t && !btf_is_ptr(r.t)) return dec.value(a.type_id, data, 0);  // by value, in memory
      ArgValue v = make(Kind::Pointer, addr);
      uint32_t pointee = r.t ? r.t->type : 0;
      ResolvedType pt = resolve_btf_type(plan.btf, pointee);
      bool scalar = pt.t && !btf_is_struct(pt.t) && !btf_is_union(pt.t) && !btf_is_array(pt.t);
      if (addr == 0) return v;
      if (scalar && data.size() < a.spec.size) {
        v.truncated = true;  // a scalar pointee whose bytes did not all fit
        return v;
      }
      v.fields.emplace_back("", dec.value(pointee, data, 0));
      return v;
    }
    default: {
      std::vector<uint8_t> bytes =
          slot_bytes(cap, a.spec.slot, std::max<uint32_t>(a.spec.slots, 1));
      return dec.value(a.type_id, bytes, 0);
    }
  }
}

std::vector<std::pair<std::string, ArgValue>> decode_shown(const FuncArgs& plan,
                                                           const CapturedArgs& cap,
                                                           const AddrNamer& name_addr) {
  if (!plan.tp_fields.empty()) return decode_tp_fields(plan, cap);
  std::vector<std::pair<std::string, ArgValue>> out;
  for (size_t i = 0; i < plan.args.size(); ++i)
    out.emplace_back(plan.args[i].name, decode_arg(plan, i, cap, name_addr));
  return out;
}

}  // namespace retsnoop
