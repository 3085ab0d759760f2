#include "discovery/btf_types.h"

#include <bpf/btf.h>

#include <cstring>

namespace retsnoop {

namespace {

// Real chains are a few links long; a cycle in a malformed BTF must not hang us.
constexpr int kMaxChain = 32;

bool is_user_tag(const struct btf* btf, const struct btf_type* t) {
  return btf_kind(t) == BTF_KIND_TYPE_TAG &&
         std::strcmp(btf__name_by_offset(btf, t->name_off), "user") == 0;
}

}  // namespace

ResolvedType resolve_btf_type(const struct btf* btf, uint32_t id) {
  ResolvedType out;
  for (int i = 0; i < kMaxChain; ++i) {
    const struct btf_type* t = id ? btf__type_by_id(btf, id) : nullptr;
    if (!t) return out;
    if (!btf_is_mod(t) && !btf_is_typedef(t) && !btf_is_type_tag(t)) {
      out.id = id;
      out.t = t;
      return out;
    }
    out.user |= is_user_tag(btf, t);
    id = t->type;
  }
  return out;
}

bool is_btf_char(const struct btf* btf, const struct btf_type* t) {
  if (!t || !btf_is_int(t) || t->size != 1) return false;
  return (btf_int_encoding(t) & BTF_INT_CHAR) ||
         std::strcmp(btf__name_by_offset(btf, t->name_off), "char") == 0;
}

}  // namespace retsnoop
