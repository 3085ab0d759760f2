// Small questions about BTF types that the -A planner and the argument renderer both ask: what a
// type is once typedefs, qualifiers and type tags are looked through, and whether it is "char".
#pragma once

#include <cstdint>

struct btf;
struct btf_type;

namespace retsnoop {

struct ResolvedType {
  uint32_t id = 0;                     // 0: void, or a chain that does not end
  const struct btf_type* t = nullptr;  // null for void
  bool user = false;                   // a "user" type tag (__user) was on the way
};

// Looks through typedef, const, volatile, restrict and type tags.
ResolvedType resolve_btf_type(const struct btf* btf, uint32_t id);

// The C "char" (not signed/unsigned char, which carry bytes rather than text).
bool is_btf_char(const struct btf* btf, const struct btf_type* t);

}  // namespace retsnoop
