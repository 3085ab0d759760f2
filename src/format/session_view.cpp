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

// What the views above cannot show by themselves.
std::string warnings(const Session& s) {
  std::string out;
  if (s.incomplete)
    out += "WARNING: records of this session were lost (BPF ring buffer full): the views above "
           "are incomplete\n";
  if (s.kstack_failed) out += "WARNING: the kernel stack could not be captured\n";
  if (s.ustack_failed) out += "WARNING: the user stack could not be captured\n";
  return out;
}

}  // namespace

std::string format_session(const Session& s, const FormatContext& ctx, int64_t mono_to_real_ns) {
  std::string out = format_session_header(s, mono_to_real_ns) + "\n";
  for (const std::string& view : views(s, ctx)) {
    if (!view.empty()) out += "\n" + view;
  }
  return out + warnings(s) + "\n\n";
}

}  // namespace retsnoop
