// What the DWARF of one compile unit says about a code address: the chain of functions executing
// there (the real function and the inlined calls inside it) and their source locations.
#pragma once

#include <elfutils/libdw.h>

#include <vector>

#include "symbolize/symbolizer.h"

namespace retsnoop {

// Subprogram and inlined-subroutine DIEs of compile unit cu whose code covers pc, outermost (the
// real function) first. Empty when no function DIE covers pc (e.g. assembly without them).
std::vector<Dwarf_Die> function_scopes(Dwarf_Die* cu, Dwarf_Addr pc);

// Where an inlined subroutine was called from (DW_AT_call_file/line/column).
SourceLoc call_site(Dwarf_Die* cu, Dwarf_Die* inlined);

// Line-table location of pc itself.
SourceLoc line_at(Dwarf_Die* cu, Dwarf_Addr pc);

}  // namespace retsnoop
