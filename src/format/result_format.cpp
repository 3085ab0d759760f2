#include "format/result_format.h"

#include <cinttypes>
#include <cstdio>
#include <cstring>

#include "util/errno_names.h"

namespace retsnoop {
namespace {

std::string decimal(int64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "[%" PRId64 "]", v);
  return buf;
}

std::string hex(uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "[0x%" PRIx64 "]", v);
  return buf;
}

// Built in one piece: every failing row of every session has one.
std::string errno_text(int64_t v) {
  const char* name = errno_name(static_cast<int>(-v));
  if (!name) return decimal(v);
  std::string out;
  size_t len = std::strlen(name);
  out.reserve(len + 3);
  out += "[-";
  out.append(name, len);
  out += ']';
  return out;
}

std::string signed_text(int64_t v) { return rs_is_errno_value(v) ? errno_text(v) : decimal(v); }

std::string pointer_text(int64_t res) {
  if (res == 0) return "[NULL]";
  return rs_is_errno_value(res) ? errno_text(res) : hex(static_cast<uint64_t>(res));
}

// Unsigned results above 32 bits are nearly always addresses or masks, which read better in hex.
std::string unsigned_text(int64_t res) {
  uint64_t v = static_cast<uint64_t>(res);
  if (v > UINT32_MAX) return hex(v);
  return decimal(static_cast<int64_t>(v));
}

}  // namespace

std::string format_result(int64_t res, RetKind kind) {
  switch (kind) {
    case RetKind::Void: return "[void]";
    case RetKind::Bool:
    case RetKind::False: return result_value(res, kind) ? "[true]" : "[false]";
    case RetKind::Unsigned: return unsigned_text(res);
    case RetKind::Int32:
    case RetKind::Int64:
    case RetKind::Neg8:
    case RetKind::Neg16:
    case RetKind::Neg32:
    case RetKind::Neg64: return signed_text(result_value(res, kind));
    case RetKind::Int8:
    case RetKind::Int16: return decimal(result_value(res, kind));
    case RetKind::Ptr: return pointer_text(res);
  }
  return decimal(res);
}

}  // namespace retsnoop
