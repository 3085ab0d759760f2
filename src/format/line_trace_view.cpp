#include "format/line_trace_view.h"

#include <algorithm>

#include "discovery/func_lookup.h"
#include "format/result_format.h"
#include "format/text_columns.h"
#include "util/strings.h"

namespace retsnoop {

namespace {

constexpr const char* kIndent = "    ";

std::string dropped_note(uint32_t dropped) {
  return std::string(kIndent) + "[...] " + std::to_string(dropped) +
         (dropped == 1 ? " earlier line hit" : " earlier line hits") +
         " not kept (-C lines.max-count)\n";
}

}  // namespace

std::vector<TextLine> line_hit_lines(const LineHit& hit, const FormatContext& ctx) {
  if (hit.line_id >= ctx.line_probes.size()) return {{"[unknown line]", ""}};
  uint64_t addr = ctx.line_probes[hit.line_id].addr;
  FormatOptions opts = ctx.opts;
  opts.emit_addrs = false;
  return frame_lines(addr, ctx.symbolizer.symbolize(addr, false), opts);
}

std::map<size_t, std::string> returning_hits(const Session& s, const FormatContext& ctx) {
  std::map<size_t, std::string> out;
  for (const StackCall& call : s.calls) {
    if (call.running || call.stitched) continue;
    const FuncInfo& fn = lookup_func(ctx.funcs, call.func_id);
    for (size_t i = s.lines.size(); i > 0; --i) {
      const LineHit& hit = s.lines[i - 1];
      if (hit.call_seq != call.seq || hit.line_id >= ctx.line_probes.size() ||
          ctx.line_probes[hit.line_id].func != fn.name)
        continue;
      out[i - 1] = format_result(call.res, fn.ret);
      break;
    }
  }
  return out;
}

std::string format_line_trace(const Session& s, const FormatContext& ctx) {
  if (s.lines.empty()) return s.lines_dropped ? dropped_note(s.lines_dropped) : "";
  std::vector<std::vector<TextLine>> rows;
  size_t symbol_width = 0, source_width = 0;
  for (const LineHit& hit : s.lines) {
    rows.push_back(line_hit_lines(hit, ctx));
    for (const TextLine& l : rows.back()) {
      symbol_width = std::max(symbol_width, display_width(l.symbol));
      source_width = std::max(source_width, display_width(l.source));
    }
  }
  std::map<size_t, std::string> returned = returning_hits(s, ctx);
  std::string out = "SOURCE LINE TRACE (oldest first)\n";
  if (s.lines_dropped) out += dropped_note(s.lines_dropped);
  for (size_t i = 0; i < rows.size(); ++i) {
    for (size_t j = 0; j < rows[i].size(); ++j) {
      std::string line = kIndent + pad_right(rows[i][j].symbol, symbol_width) + "  " +
                         pad_right(rows[i][j].source, source_width);
      auto it = returned.find(i);
      if (j == 0 && it != returned.end()) line += "  <- returned " + it->second;
      out += std::string(trim_right(line)) + "\n";
    }
  }
  return out;
}

}  // namespace retsnoop
