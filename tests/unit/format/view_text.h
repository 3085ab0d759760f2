// The text a view appends to an empty buffer. The views append to the printer's buffer, and
// tests compare what one session's view wrote.
#pragma once

#include <cstdint>
#include <string>

#include "format/session_header.h"
#include "format/session_view.h"
#include "format/stack_view.h"

namespace retsnoop {

inline std::string stack_text(const Session& s, const FormatContext& ctx) {
  std::string out;
  append_stack(out, s, ctx);
  return out;
}

inline std::string session_text(const Session& s, const FormatContext& ctx,
                                int64_t mono_to_real_ns) {
  std::string out;
  append_session(out, s, ctx, mono_to_real_ns);
  return out;
}

inline std::string session_header_text(const Session& s, int64_t mono_to_real_ns) {
  std::string out;
  append_session_header(out, s, mono_to_real_ns);
  return out;
}

}  // namespace retsnoop
