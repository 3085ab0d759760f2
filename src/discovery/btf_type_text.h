// The BTF type a C type text names, such as a tracefs format file writes: "unsigned int",
// "size_t", "union bpf_attr __user *", "const char __user *const __user *". BTF holds each
// type once, so a pointer type is found among the pointers the kernel's own types use; a type
// no BTF type spells is not found.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

struct btf;

namespace retsnoop {

struct CTypeText {
  enum class Tag : uint8_t { None, Struct, Union, Enum };
  Tag tag = Tag::None;
  std::string base;       // "bpf_attr", "size_t", "unsigned int"; "void"
  uint32_t pointers = 0;  // '*' count
  bool user = false;      // __user on the way
};

// Qualifiers (const, volatile, restrict, __user) dropped, integer specifiers in C's order
// ("long unsigned" is "unsigned long"). nullopt for text that is not such a declaration: an
// array, a function pointer, an empty base, over 3 pointers or 8 words.
std::optional<CTypeText> parse_c_type(std::string_view text);

class BtfTypeText {
 public:
  explicit BtfTypeText(const struct btf* btf) : btf_(btf) {}

  // The type id text names; 0 when it does not parse or btf has no such type. void is 0 too.
  uint32_t find(std::string_view text);

 private:
  uint32_t find_base(const CTypeText& c) const;
  uint32_t pointer_to(uint32_t id);

  const struct btf* btf_;
  // The first PTR type to each type (id after qualifiers), built on the first pointer asked.
  std::unordered_map<uint32_t, uint32_t> ptr_to_;
  bool indexed_ = false;
};

}  // namespace retsnoop
