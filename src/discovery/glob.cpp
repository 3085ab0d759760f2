#include "discovery/glob.h"

#include <utility>

namespace retsnoop {

// Greedy two-pointer match with backtracking to the last '*': linear in practice, no recursion,
// so matching 150k kallsyms names against many globs stays cheap.
bool glob_match(std::string_view pat, std::string_view text) {
  size_t p = 0, t = 0;
  size_t star = std::string_view::npos, resume = 0;
  while (t < text.size()) {
    if (p < pat.size() && (pat[p] == '?' || pat[p] == text[t])) {
      ++p;
      ++t;
    } else if (p < pat.size() && pat[p] == '*') {
      star = p++;
      resume = t;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      t = ++resume;
    } else {
      return false;
    }
  }
  while (p < pat.size() && pat[p] == '*') ++p;
  return p == pat.size();
}

CompiledGlob::CompiledGlob(std::string pattern) : pattern_(std::move(pattern)) {
  size_t first = pattern_.find_first_not_of('*');
  if (first == std::string::npos) {  // only stars, or empty
    shape_ = pattern_.empty() ? Shape::Exact : Shape::Infix;
    return;
  }
  size_t last = pattern_.find_last_not_of('*');
  literal_at_ = first;
  literal_len_ = last + 1 - first;
  std::string_view core(pattern_.data() + first, literal_len_);
  if (core.find_first_of("*?") != std::string_view::npos) return;  // General
  bool lead = first > 0, trail = last + 1 < pattern_.size();
  shape_ = lead ? (trail ? Shape::Infix : Shape::Suffix) : (trail ? Shape::Prefix : Shape::Exact);
}

bool CompiledGlob::matches(std::string_view text) const {
  std::string_view literal(pattern_.data() + literal_at_, literal_len_);
  switch (shape_) {
    // Most names differ from the literal in their first (last) character: checked before the
    // library compares the rest.
    case Shape::Exact: return text == literal;
    case Shape::Prefix:
      return text.size() >= literal.size() && text[0] == literal[0] && text.starts_with(literal);
    case Shape::Suffix:
      return text.size() >= literal.size() && text.back() == literal.back() &&
             text.ends_with(literal);
    case Shape::Infix: return text.find(literal) != std::string_view::npos;
    case Shape::General: break;
  }
  return glob_match(pattern_, text);
}

}  // namespace retsnoop
