#include "format/tp_field_value.h"

#include <algorithm>
#include <cstring>
#include <span>

namespace retsnoop {

namespace {

using Bytes = std::span<const uint8_t>;
using Kind = ArgValue::Kind;

ArgValue cut_short() {
  ArgValue v;
  v.kind = Kind::Array;
  v.truncated = true;
  return v;
}

// An integer, an address or a bool of b.size() bytes; other sizes show their bytes.
ArgValue element(const TpField& f, Bytes b) {
  ArgValue v;
  size_t n = b.size();
  if (n != 1 && n != 2 && n != 4 && n != 8) {
    v.kind = Kind::Array;
    for (uint8_t byte : b) v.fields.emplace_back("", element(f, Bytes(&byte, 1)));
    return v;
  }
  uint64_t raw = 0;
  std::memcpy(&raw, b.data(), n);
  v.u = raw;
  if (f.pointer) {
    v.kind = Kind::Address;
  } else if (f.type == "bool") {
    v.kind = Kind::Bool;
  } else if (f.is_signed) {
    v.kind = Kind::Signed;
    unsigned shift = 64 - 8 * n;
    v.s = static_cast<int64_t>(raw << shift) >> shift;
  } else {
    v.kind = Kind::Unsigned;
  }
  return v;
}

// An array that has whole bytes, of which b holds the first: chars as a string, others as
// their elements without the trailing zero ones (as BTF-typed arrays print).
ArgValue array(const TpField& f, Bytes b, size_t whole) {
  bool cut = b.size() < whole;
  if (f.text) {
    ArgValue v = string_value(0, b);
    v.truncated = v.truncated && cut;
    return v;
  }
  ArgValue v;
  v.kind = Kind::Array;
  v.truncated = cut;
  for (size_t off = 0; off + f.elem_size <= b.size(); off += f.elem_size)
    v.fields.emplace_back("", element(f, b.subspan(off, f.elem_size)));
  while (!v.fields.empty() && v.fields.back().second.is_zero()) v.fields.pop_back();
  return v;
}

struct Capture {
  int32_t len = 0;  // bytes, or RS_ARG_ERR_*
  Bytes data;
};

Capture capture(const CapturedArgs& cap, uint32_t i) {
  Capture c;
  c.len = i < cap.lens.size() ? cap.lens[i] : 0;
  if (i < cap.data.size())
    c.data = Bytes(cap.data[i]).first(std::min<size_t>(cap.data[i].size(), std::max(c.len, 0)));
  return c;
}

ArgValue fixed(const TpField& f, const Capture& rec, uint64_t rec_addr) {
  if (rec.len < 0) return missing_value(rec_addr + f.offset, rec.len);
  if (f.offset >= rec.data.size()) return cut_short();
  Bytes b = rec.data.subspan(f.offset, std::min<size_t>(f.size, rec.data.size() - f.offset));
  if (f.elem_size) return array(f, b, f.size);
  return b.size() < f.size ? cut_short() : element(f, b);
}

// A __data_loc field's bytes, as the locator said: a string's count its NUL.
ArgValue located(const TpField& f, const Capture& c, uint64_t rec_addr) {
  if (c.len < 0) return missing_value(rec_addr + f.offset, c.len);
  if (!f.text) return array(f, c.data, c.data.size());
  if (!c.data.empty()) return string_value(0, c.data);  // no NUL: cut at max-str-arg-size
  ArgValue v;  // an empty locator: the kernel's "" has no NUL to count
  v.kind = Kind::String;
  return v;
}

}  // namespace

std::vector<std::pair<std::string, ArgValue>> decode_tp_fields(const FuncArgs& plan,
                                                               const CapturedArgs& cap) {
  uint64_t rec_addr = cap.slots.empty() ? 0 : cap.slots[0];
  Capture rec = capture(cap, 0);
  std::vector<std::pair<std::string, ArgValue>> out;
  for (const TpField& f : plan.tp_fields) {
    ArgValue v = f.loc == TpLoc::Fixed ? fixed(f, rec, rec_addr)
                                       : located(f, capture(cap, f.capture), rec_addr);
    out.emplace_back(f.name, std::move(v));
  }
  return out;
}

}  // namespace retsnoop
