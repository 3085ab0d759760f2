#include "format/session_view.h"

#include <vector>

#include "format/calltrace_view.h"
#include "format/lbr_view.h"
#include "format/session_header.h"
#include "format/stack_view.h"

namespace retsnoop {
namespace {

std::vector<std::string> views(const Session& s, const FormatContext& ctx) {
  std::vector<std::string> out;
  if (ctx.opts.calltrace) out.push_back(format_calltrace(s, ctx));
  if (ctx.opts.lbr) out.push_back(format_lbr(s, ctx));
  out.push_back(format_stack(s, ctx));
  return out;
}

}  // namespace

std::string format_session(const Session& s, const FormatContext& ctx, int64_t mono_to_real_ns) {
  std::string out = format_session_header(s, mono_to_real_ns) + "\n";
  for (const std::string& view : views(s, ctx)) {
    if (!view.empty()) out += "\n" + view;
  }
  return out + "\n\n";
}

}  // namespace retsnoop
