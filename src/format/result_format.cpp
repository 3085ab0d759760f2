#include "format/result_format.h"

#include <cinttypes>
#include <cstdio>

#include "util/errno_names.h"

namespace retsnoop {
namespace {

constexpr int64_t kMaxErrno = 4095;  // include/linux/err.h MAX_ERRNO

bool is_errno_value(int64_t v) { return v >= -kMaxErrno && v <= -1; }

// The kernel returns a bool in the low byte of the register; the upper bits are unspecified
// by the ABI and sometimes hold garbage.
bool low_byte_set(int64_t res) { return (res & 0xff) != 0; }

int64_t sign_extend_low32(int64_t res) { return static_cast<int32_t>(static_cast<uint32_t>(res)); }

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

std::string errno_text(int64_t v) {
  const char* name = errno_name(static_cast<int>(-v));
  return name ? std::string("[-") + name + "]" : decimal(v);
}

std::string signed_text(int64_t v) { return is_errno_value(v) ? errno_text(v) : decimal(v); }

std::string pointer_text(int64_t res) {
  if (res == 0) return "[NULL]";
  return is_errno_value(res) ? errno_text(res) : hex(static_cast<uint64_t>(res));
}

// Unsigned results above 32 bits are nearly always addresses or masks, which read better in hex.
std::string unsigned_text(int64_t res) {
  uint64_t v = static_cast<uint64_t>(res);
  if (v > UINT32_MAX) return hex(v);
  return decimal(static_cast<int64_t>(v));
}

}  // namespace

bool result_is_error(int64_t res, RetKind kind) {
  switch (kind) {
    case RetKind::Void:
    case RetKind::Bool:
    case RetKind::Unsigned:
    case RetKind::Int8:
    case RetKind::Int16:
      return false;
    case RetKind::Int32:
      return is_errno_value(sign_extend_low32(res));
    case RetKind::Int64:
      return is_errno_value(res);
    case RetKind::Ptr:
      return res == 0 || is_errno_value(res);
  }
  return false;
}

std::optional<int> failure_errno(int64_t res, RetKind kind) {
  if (!result_is_error(res, kind)) return std::nullopt;
  int64_t value = kind == RetKind::Int32 ? sign_extend_low32(res) : res;
  return static_cast<int>(-value);
}

std::string format_result(int64_t res, RetKind kind) {
  switch (kind) {
    case RetKind::Void:
      return "[void]";
    case RetKind::Bool:
      return low_byte_set(res) ? "[true]" : "[false]";
    case RetKind::Unsigned:
      return unsigned_text(res);
    case RetKind::Int32:
      return signed_text(sign_extend_low32(res));
    case RetKind::Int64:
      return signed_text(res);
    // The x86-64 ABI leaves the bits above a narrow return value undefined.
    case RetKind::Int8:
      return decimal(static_cast<int8_t>(res));
    case RetKind::Int16:
      return decimal(static_cast<int16_t>(res));
    case RetKind::Ptr:
      return pointer_text(res);
  }
  return decimal(res);
}

}  // namespace retsnoop
