#include "discovery/btf_type_text.h"

#include <bpf/btf.h>

#include <algorithm>
#include <array>
#include <vector>

namespace retsnoop {

namespace {

constexpr uint32_t kMaxPointers = 3;
constexpr size_t kMaxWords = 8;

bool is_qualifier(std::string_view w) {
  return w == "const" || w == "volatile" || w == "restrict" || w == "__restrict" || w == "__user";
}

bool is_int_word(std::string_view w) {
  return w == "unsigned" || w == "signed" || w == "short" || w == "long" || w == "int" ||
         w == "char";
}

// Integer specifiers in any order, as C's canonical "unsigned long long"; empty when they do
// not make one integer type.
std::string int_spelling(const std::vector<std::string_view>& words) {
  int longs = 0;
  bool is_unsigned = false, is_signed = false, is_short = false, is_char = false;
  for (std::string_view w : words) {
    longs += w == "long";
    is_unsigned |= w == "unsigned";
    is_signed |= w == "signed";
    is_short |= w == "short";
    is_char |= w == "char";
  }
  if ((is_unsigned && is_signed) || longs > 2 || (is_short && (longs || is_char)) ||
      (is_char && longs))
    return {};
  std::string sign = is_unsigned ? "unsigned " : "";
  if (is_char) return (is_signed ? "signed " : sign) + "char";
  if (is_short) return sign + "short";
  if (longs) return sign + (longs == 2 ? "long long" : "long");
  return sign.empty() ? "int" : "unsigned int";
}

// The names BTF may give an integer type: GCC's DWARF spelling ("long unsigned int") and
// clang's ("unsigned long").
std::vector<std::string> btf_int_names(const std::string& c) {
  static const std::array<std::pair<std::string_view, std::string_view>, 6> kGcc = {{
      {"short", "short int"},
      {"unsigned short", "short unsigned int"},
      {"long", "long int"},
      {"unsigned long", "long unsigned int"},
      {"long long", "long long int"},
      {"unsigned long long", "long long unsigned int"},
  }};
  for (const auto& [spelled, gcc] : kGcc)
    if (c == spelled) return {std::string(gcc), c};
  return {c};
}

std::vector<std::string_view> words_of(std::string_view text, uint32_t& pointers) {
  std::vector<std::string_view> words;
  size_t i = 0;
  while (i < text.size()) {
    char c = text[i];
    if (c == '*') {
      ++pointers;
      ++i;
      continue;
    }
    if (c == ' ' || c == '\t') {
      ++i;
      continue;
    }
    size_t end = text.find_first_of(" \t*", i);
    if (end == std::string_view::npos) end = text.size();
    words.push_back(text.substr(i, end - i));
    i = end;
  }
  return words;
}

bool is_name(std::string_view w) {
  return !w.empty() && std::ranges::all_of(w, [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  });
}

}  // namespace

std::optional<CTypeText> parse_c_type(std::string_view text) {
  CTypeText out;
  std::vector<std::string_view> words = words_of(text, out.pointers);
  if (words.size() > kMaxWords || out.pointers > kMaxPointers) return std::nullopt;
  // A '*' must follow the base: "* int" is no declaration.
  size_t star = text.find('*');
  std::vector<std::string_view> base;
  for (std::string_view w : words) {
    if (w == "__user") out.user = true;
    if (is_qualifier(w)) continue;
    if (!is_name(w)) return std::nullopt;
    if (star != std::string_view::npos && w.data() > text.data() + star) return std::nullopt;
    base.push_back(w);
  }
  if (base.empty()) return std::nullopt;
  static const std::array<std::pair<std::string_view, CTypeText::Tag>, 3> kTags = {{
      {"struct", CTypeText::Tag::Struct},
      {"union", CTypeText::Tag::Union},
      {"enum", CTypeText::Tag::Enum},
  }};
  for (const auto& [word, tag] : kTags) {
    if (base.front() != word) continue;
    if (base.size() != 2) return std::nullopt;
    out.tag = tag;
    out.base = base[1];
    return out;
  }
  if (std::ranges::all_of(base, is_int_word)) {
    out.base = int_spelling(base);
    if (out.base.empty()) return std::nullopt;
    return out;
  }
  if (base.size() != 1) return std::nullopt;
  out.base = base.front();
  return out;
}

uint32_t BtfTypeText::find_base(const CTypeText& c) const {
  auto by_kind = [&](const std::string& name, int kind) {
    int id = btf__find_by_name_kind(btf_, name.c_str(), kind);
    return id > 0 ? static_cast<uint32_t>(id) : 0u;
  };
  switch (c.tag) {
    case CTypeText::Tag::Struct: return by_kind(c.base, BTF_KIND_STRUCT);
    case CTypeText::Tag::Union: return by_kind(c.base, BTF_KIND_UNION);
    case CTypeText::Tag::Enum: {
      uint32_t id = by_kind(c.base, BTF_KIND_ENUM);
      return id ? id : by_kind(c.base, BTF_KIND_ENUM64);
    }
    case CTypeText::Tag::None: break;
  }
  if (uint32_t id = by_kind(c.base, BTF_KIND_TYPEDEF)) return id;
  for (const std::string& name : btf_int_names(c.base))
    if (uint32_t id = by_kind(name, BTF_KIND_INT)) return id;
  return 0;
}

uint32_t BtfTypeText::pointer_to(uint32_t id) {
  if (!indexed_) {
    indexed_ = true;
    for (uint32_t i = 1; i < btf__type_cnt(btf_); ++i) {
      const struct btf_type* t = btf__type_by_id(btf_, i);
      if (!btf_is_ptr(t)) continue;
      // const char * is a pointer to char here: qualifiers change nothing the plan reads.
      uint32_t to = t->type;
      for (int hops = 0; hops < 8 && to; ++hops) {
        const struct btf_type* q = btf__type_by_id(btf_, to);
        if (!q || !(btf_is_mod(q) || btf_is_type_tag(q))) break;
        to = q->type;
      }
      ptr_to_.try_emplace(to, i);
    }
  }
  auto it = ptr_to_.find(id);
  return it == ptr_to_.end() ? 0 : it->second;
}

uint32_t BtfTypeText::find(std::string_view text) {
  std::optional<CTypeText> c = btf_ ? parse_c_type(text) : std::nullopt;
  if (!c) return 0;
  uint32_t id = c->base == "void" ? 0 : find_base(*c);
  if (!id && c->base != "void") return 0;
  for (uint32_t i = 0; i < c->pointers; ++i) {
    id = pointer_to(id);
    if (!id) return 0;
  }
  return id;
}

}  // namespace retsnoop
