#include "format/session_view.h"

#include "format/calltrace_view.h"
#include "format/lbr_view.h"
#include "format/session_header.h"
#include "format/stack_view.h"

namespace retsnoop {
namespace {

// What the views cannot show by themselves.
void append_warnings(std::string& out, const Session& s) {
  if (s.incomplete)
    out += "WARNING: records of this session were lost (BPF ring buffer full): the views above "
           "are incomplete\n";
  if (s.kstack_failed) out += "WARNING: the kernel stack could not be captured\n";
  if (s.ustack_failed) out += "WARNING: the user stack could not be captured\n";
}

void append_view(std::string& out, const std::string& view) {
  if (view.empty()) return;
  out += '\n';
  out += view;
}

}  // namespace

std::string format_session(const Session& s, const FormatContext& ctx, int64_t mono_to_real_ns) {
  std::string out = format_session_header(s, mono_to_real_ns, ctx.cache);
  out += '\n';
  if (ctx.opts.calltrace) append_view(out, format_calltrace(s, ctx));
  if (ctx.opts.lbr) append_view(out, format_lbr(s, ctx));
  append_view(out, format_stack(s, ctx));
  append_warnings(out, s);
  out += "\n\n";
  return out;
}

}  // namespace retsnoop
