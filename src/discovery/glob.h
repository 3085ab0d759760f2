// Shell-style globs over function names, module names and source paths: '*' matches any run of
// characters (also empty), '?' exactly one; no other metacharacters.
#pragma once

#include <string_view>

namespace retsnoop {

bool glob_match(std::string_view pattern, std::string_view text);

}  // namespace retsnoop
