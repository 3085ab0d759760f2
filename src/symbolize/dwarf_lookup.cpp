#include "symbolize/dwarf_lookup.h"

#include <dwarf.h>

#include "discovery/vmlinux.h"

namespace retsnoop {

namespace {

bool is_pc_scope(int tag) {
  return tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine ||
         tag == DW_TAG_lexical_block;
}

// The child of parent whose code covers pc. Siblings are stepped over with DW_AT_sibling, so
// only the DIEs on the path to pc are ever parsed.
bool child_covering(Dwarf_Die* parent, Dwarf_Addr pc, Dwarf_Die* out) {
  Dwarf_Die child;
  if (dwarf_child(parent, &child) != 0) return false;
  do {
    if (is_pc_scope(dwarf_tag(&child)) && dwarf_haspc(&child, pc) == 1) {
      *out = child;
      return true;
    }
  } while (dwarf_siblingof(&child, &child) == 0);
  return false;
}

int udata_attr(Dwarf_Die* die, unsigned int name) {
  Dwarf_Attribute attr;
  Dwarf_Word value;
  return dwarf_formudata(dwarf_attr(die, name, &attr), &value) == 0 ? static_cast<int>(value) : 0;
}

}  // namespace

std::vector<Dwarf_Die> function_scopes(Dwarf_Die* cu, Dwarf_Addr pc) {
  std::vector<Dwarf_Die> chain;
  Dwarf_Die scope = *cu;
  while (child_covering(&scope, pc, &scope)) {
    if (dwarf_tag(&scope) != DW_TAG_lexical_block) chain.push_back(scope);
  }
  return chain;
}

SourceLoc call_site(Dwarf_Die* cu, Dwarf_Die* inlined) {
  SourceLoc loc;
  Dwarf_Attribute attr;
  Dwarf_Word file_idx;
  Dwarf_Files* files;
  size_t nfiles;
  if (dwarf_formudata(dwarf_attr(inlined, DW_AT_call_file, &attr), &file_idx) != 0 ||
      dwarf_getsrcfiles(cu, &files, &nfiles) != 0 || file_idx >= nfiles)
    return loc;
  const char* file = dwarf_filesrc(files, file_idx, nullptr, nullptr);
  if (!file) return loc;
  loc.file = cu_tree_path(file, cu);
  loc.line = udata_attr(inlined, DW_AT_call_line);
  loc.col = udata_attr(inlined, DW_AT_call_column);
  return loc;
}

SourceLoc line_at(Dwarf_Die* cu, Dwarf_Addr pc) {
  SourceLoc loc;
  Dwarf_Line* line = dwarf_getsrc_die(cu, pc);
  const char* file = line ? dwarf_linesrc(line, nullptr, nullptr) : nullptr;
  if (!file) return loc;
  loc.file = cu_tree_path(file, cu);
  dwarf_lineno(line, &loc.line);
  dwarf_linecol(line, &loc.col);
  return loc;
}

}  // namespace retsnoop
