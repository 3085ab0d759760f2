// User globs for -e/-a/-d as they are typed, turned into validated selectors.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace retsnoop {

enum class GlobKind { Name, Path, User };

struct GlobSpec {
  GlobKind kind = GlobKind::Name;
  std::string pattern;      // Name, User: function name glob; Path: source path glob (no ':')
  std::string module_glob;  // Name only; empty: any module and vmlinux
  std::string text;         // as the user wrote it, for messages and per-glob match counts
  std::string binary;       // User only: an absolute path or a library name (libc.so.6)
};

// Parses "NAMEGLOB", "NAMEGLOB [MODGLOB]", ":PATHGLOB" or "BINARY:NAMEGLOB" (a user-space
// function: kernel names never hold ':', and a path glob starts with it). Throws UserError
// naming the glob.
GlobSpec parse_glob(std::string_view text);

// Parses every glob of one option category, replacing each "@FILE" by the globs listed in FILE
// (whitespace-separated; "name [mod]" may span two tokens).
std::vector<GlobSpec> parse_glob_args(const std::vector<std::string>& typed);

}  // namespace retsnoop
