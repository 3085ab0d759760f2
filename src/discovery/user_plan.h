// User-space functions selected by "BINARY:GLOB" globs: the binaries resolved, their symbol
// tables read and matched.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "discovery/func_args.h"
#include "discovery/func_info.h"
#include "discovery/glob_spec.h"
#include "discovery/ld_cache.h"

namespace retsnoop {

// The user globs of -e, -a and -d, apart from the kernel ones.
struct UserGlobs {
  std::vector<GlobSpec> entry, allow, deny;

  bool empty() const { return entry.empty() && allow.empty(); }
};

// What a user-space function's debug information says: when it failed, and its parameters for
// -A. Reading it is another layer's (the sandboxed symbolizer's): planning only asks.
class UserDebugInfo {
 public:
  virtual ~UserDebugInfo() = default;
  // The kind the debug information of the binary at path gives the function at file offset off;
  // nullopt when it has none for it.
  virtual std::optional<RetKind> ret_kind(const std::string& path, uint64_t off) = 0;
  // Its arguments' plan from its prototype there, owning the types it points into; nullopt
  // when there is none, or one BTF cannot express.
  virtual std::optional<FuncArgs> func_args(const std::string& path, uint64_t off) = 0;
};

struct UserPlanOptions {
  // -C user.retval: how every user function's result is judged, debug information unread.
  std::optional<RetKind> ret;
  // Else the debug information decides where there is some (when set), and otherwise the errno
  // convention over 64 bits.
  UserDebugInfo* debug_info = nullptr;
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
