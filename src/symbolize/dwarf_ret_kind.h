// The failure rule a user-space function's DWARF return type gives it: C's conventions, where the
// kernel's are those of errno (discovery/ret_kind.h).
#pragma once

#include <elfutils/libdw.h>

#include <optional>

#include "discovery/ret_kind.h"

namespace retsnoop {

// fn: a subprogram DIE (or a concrete instance of one). Signed integers give Neg8..Neg64 by
// width, bool False, pointers Ptr, no return type Void; unsigned, floating-point, enumerations of
// no signed base, structs and unions by value Unsigned (they never fail). nullopt when the type
// cannot be read, or runs through more qualifiers and typedefs than a real program has.
std::optional<RetKind> dwarf_ret_kind(Dwarf_Die* fn);

}  // namespace retsnoop
