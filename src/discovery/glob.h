// Shell-style globs over function names, module names and source paths: '*' matches any run of
// characters (also empty), '?' exactly one; no other metacharacters.
#pragma once

#include <string>
#include <string_view>

namespace retsnoop {

bool glob_match(std::string_view pattern, std::string_view text);

// A glob taken apart once for the tens of thousands of names it is tried on: most are a literal
// with '*' at one end or both (`bpf_*`, `*sys_bpf`, `*map*`), which one comparison settles;
// matches() agrees with glob_match() on every pattern.
class CompiledGlob {
 public:
  explicit CompiledGlob(std::string pattern);
  bool matches(std::string_view text) const;

 private:
  enum class Shape { Exact, Prefix, Suffix, Infix, General };

  std::string pattern_;
  Shape shape_ = Shape::General;
  size_t literal_at_ = 0;  // the literal core: pattern_ without its leading and trailing '*'
  size_t literal_len_ = 0;
};

}  // namespace retsnoop
