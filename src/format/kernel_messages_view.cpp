#include "format/kernel_messages_view.h"

#include <algorithm>
#include <cstdio>
#include <vector>

#include "format/kernel_message_text.h"
#include "format/message_emitter.h"
#include "format/text_columns.h"
#include "util/text_escape.h"

namespace retsnoop {

std::string kernel_message_function(const KernelMessage& m, const FormatContext& ctx) {
  if (!m.stack.empty()) {
    std::optional<SymbolizedAddr> emitter = message_emitter(m.stack, ctx.symbolizer);
    return emitter ? escaped(emitter->name) : "[unknown]";
  }
  if (m.caller == 0) return "[unknown]";
  SymbolizedAddr sym = ctx.symbolizer.symbolize(m.caller, true);
  if (!sym.name.empty()) return escaped(sym.name);
  char addr[24];
  std::snprintf(addr, sizeof(addr), "0x%llx", (unsigned long long)m.caller);
  return addr;
}

std::string kernel_message_line(const KernelMessage& m, const FormatContext& ctx) {
  return kernel_message_function(m, ctx) + " " + kernel_message_kind_name(m.kind) + ": " +
         escaped(kernel_message_text(m, ctx.opts.messages_max_len));
}

std::string format_kernel_messages(const Session& s, const FormatContext& ctx) {
  if (s.messages.empty()) return {};
  std::vector<std::string> funcs;
  size_t func_width = 0, kind_width = 0;
  for (const KernelMessage& m : s.messages) {
    funcs.push_back(kernel_message_function(m, ctx));
    func_width = std::max(func_width, display_width(funcs.back()));
    kind_width = std::max(kind_width, display_width(kernel_message_kind_name(m.kind)));
  }
  std::string out = "KERNEL MESSAGES\n";
  for (size_t i = 0; i < s.messages.size(); ++i) {
    const KernelMessage& m = s.messages[i];
    out += "    " + pad_right(funcs[i], func_width) + "  " +
           pad_right(kernel_message_kind_name(m.kind), kind_width) + "  ";
    append_escaped(out, kernel_message_text(m, ctx.opts.messages_max_len));
    out += '\n';
  }
  return out;
}

}  // namespace retsnoop
