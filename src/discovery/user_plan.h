// User-space functions selected by "BINARY:GLOB" globs: the binaries resolved, their symbol
// tables read and matched.
#pragma once

#include <vector>

#include "discovery/func_info.h"
#include "discovery/glob_spec.h"
#include "discovery/ld_cache.h"

namespace retsnoop {

// The user globs of -e, -a and -d, apart from the kernel ones.
struct UserGlobs {
  std::vector<GlobSpec> entry, allow, deny;

  bool empty() const { return entry.empty() && allow.empty(); }
};

struct UserPlanOptions {
  RetKind ret = RetKind::Int64;  // how every user function's result is judged (no DWARF read)
  LibraryLookup libraries;
};

// The functions the entry and allow globs select in their binaries and no deny glob of the same
// binary removes, by binary, then offset; of aliases, the first name selected. Throws UserError for
// a binary that does not resolve or is not a usable ELF file, and for an entry glob that matches no
// function.
FuncTable plan_user_functions(const UserGlobs& globs, const UserPlanOptions& opts);

// "BINARY:GLOB"'s binary as a path: itself when absolute, else the library it names. Throws
// UserError when the library is not found.
std::string user_binary_path(const GlobSpec& glob, const LibraryLookup& lookup);

}  // namespace retsnoop
