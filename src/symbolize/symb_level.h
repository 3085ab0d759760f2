// How much a kernel address is symbolized: one enum from the command line (-sn, -s, -ss,
// stacks.symb-mode) through the DWARF symbolizer to the renderers.
#pragma once

namespace retsnoop {

enum class SymbLevel {
  None,     // kallsyms names only
  Lines,    // plus file:line:col from DWARF
  Inlines,  // plus the inlined frames at each address
};

}  // namespace retsnoop
