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
    case RetKind::Neg8: return "s8<0";
    case RetKind::Neg16: return "s16<0";
    case RetKind::Neg32: return "int<0";
    case RetKind::Neg64: return "long<0";
    case RetKind::False: return "bool=false";
  }
  return "?";
}

namespace {

uint8_t kind_number(RetKind kind) { return static_cast<uint8_t>(kind); }

}  // namespace

bool result_is_error(int64_t res, RetKind kind) { return rs_result_failed(res, kind_number(kind)); }

int64_t result_value(int64_t res, RetKind kind) { return rs_result_value(res, kind_number(kind)); }

std::optional<int> failure_errno(int64_t res, RetKind kind) {
  if (!result_is_error(res, kind)) return std::nullopt;
  int64_t value = result_value(res, kind);
  return rs_is_errno_value(value) ? static_cast<int>(-value) : 0;
}

}  // namespace retsnoop
