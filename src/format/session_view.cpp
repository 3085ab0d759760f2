#include "format/session_view.h"

#include "format/calltrace_view.h"
#include "format/kernel_messages_view.h"
#include "format/lbr_view.h"
#include "format/line_trace_view.h"
#include "format/session_header.h"
#include "format/stack_view.h"

namespace retsnoop {
namespace {

// What the views cannot show by themselves.
void append_warnings(std::string& out, const Session& s) {
  if (s.incomplete)
    out +=
        "WARNING: records of this session were lost (BPF ring buffer full): the views above "
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

void append_session(std::string& out, const Session& s, const FormatContext& ctx,
                    int64_t mono_to_real_ns) {
  append_session_header(out, s, mono_to_real_ns, ctx.cache);
  out += '\n';
  if (ctx.opts.calltrace) append_view(out, format_calltrace(s, ctx));
  if (ctx.opts.lbr) append_view(out, format_lbr(s, ctx));
  // The stack view goes straight into out: a flood formats one per session.
  out += '\n';
  size_t view_start = out.size();
  append_stack(out, s, ctx);
  if (out.size() == view_start) out.pop_back();
  append_view(out, format_kernel_messages(s, ctx));
  append_view(out, format_line_trace(s, ctx));
  append_warnings(out, s);
  out += "\n\n";
}

}  // namespace retsnoop
