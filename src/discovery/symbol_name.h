// Compiler-made variants of kernel function names: GCC clones get ".isra.N", ".constprop.N",
// ".part.N" suffixes, hot/cold splitting leaves a "foo.cold" fragment, clang ThinLTO promotes
// statics as "foo.llvm.N".
#pragma once

#include <string>
#include <string_view>

namespace retsnoop {

// The name as written in the source: everything before the first '.'.
inline std::string_view base_name(std::string_view name) { return name.substr(0, name.find('.')); }

// A ".cold" fragment is not a function: it is jumped into from its parent and never returns on
// its own, so an exit probe on it would never fire or fire for the parent.
inline bool is_cold_fragment(std::string_view name) {
  return name.find(".cold") != std::string_view::npos;
}

// "name", or "name [module]" as kallsyms and the glob syntax write module functions.
inline std::string qualified_name(std::string_view module, std::string_view name) {
  std::string out(name);
  if (!module.empty()) out.append(" [").append(module).append("]");
  return out;
}

}  // namespace retsnoop
