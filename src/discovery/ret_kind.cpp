#include "discovery/ret_kind.h"

namespace retsnoop {

std::string_view ret_kind_word(RetKind k) {
  switch (k) {
    case RetKind::Void: return "void";
    case RetKind::Bool: return "bool";
    case RetKind::Unsigned: return "unsigned";
    case RetKind::Int32: return "int";
    case RetKind::Int64: return "long";
    case RetKind::Int8: return "s8";
    case RetKind::Int16: return "s16";
    case RetKind::Ptr: return "ptr";
  }
  return "?";
}

}  // namespace retsnoop
