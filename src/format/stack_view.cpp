#include "format/stack_view.h"

#include <algorithm>

#include "format/frame_filter.h"
#include "format/frame_text.h"
#include "format/func_lookup.h"
#include "format/result_format.h"
#include "format/text_columns.h"

namespace retsnoop {
namespace {

// The seeds print "73us" and "374us" in the same 5-wide column: durations under a millisecond
// do not shift the other columns from one session to the next.
constexpr size_t kMinDurationWidth = 5;

struct KernelFrame {
  uint64_t addr;
  SymbolizedAddr sym;
};

struct StackRow {
  std::string marks = "  ";
  std::string duration;
  std::string result;
  TextLine text;
};

class StackBuilder {
 public:
  explicit StackBuilder(const FormatContext& ctx) : ctx_(ctx) {}

  void add_frame(const KernelFrame& frame, const StackCall* call) {
    std::vector<TextLine> lines = frame_lines(frame.addr, frame.sym, ctx_.opts);
    for (size_t i = 0; i < lines.size(); ++i) {
      StackRow row{.text = std::move(lines[i])};
      if (i == 0 && call) fill_call(row, *call);
      rows_.push_back(std::move(row));
    }
  }

  void add_frameless(const std::vector<const StackCall*>& calls) {
    for (const StackCall* call : calls) {
      StackRow row{.text = func_line(lookup_func(ctx_.funcs, call->func_id), ctx_.opts)};
      fill_call(row, *call);
      row.marks[0] = '!';
      rows_.push_back(std::move(row));
    }
  }

  std::vector<StackRow> take() { return std::move(rows_); }

 private:
  void fill_call(StackRow& row, const StackCall& call) const {
    if (call.stitched) row.marks[1] = '*';
    if (call.running) return;  // interim report: the call has not returned yet
    row.duration = std::to_string(call.dur_ns / 1000) + "us";
    row.result = format_result(call.res, lookup_func(ctx_.funcs, call.func_id).ret);
  }

  const FormatContext& ctx_;
  std::vector<StackRow> rows_;
};

std::vector<KernelFrame> kernel_frames(const Session& s, const FormatContext& ctx) {
  std::vector<KernelFrame> frames;
  for (uint64_t addr : s.kstack) {
    KernelFrame frame{addr, ctx.symbolizer.symbolize(addr, true)};
    if (ctx.opts.unfiltered_stacks || !is_tracing_frame(frame.sym))
      frames.push_back(std::move(frame));
  }
  return frames;
}

size_t find_frame(const std::vector<KernelFrame>& frames, size_t from, const std::string& name) {
  for (size_t i = from; i < frames.size(); ++i)
    if (frames[i].sym.found && frames[i].sym.name == name) return i;
  return frames.size();
}

// Walks the traced calls in order, matching each to the next kernel frame of the same name
// (greedy, so recursive calls pair up in order). Calls without a frame are printed '!' where
// the stack continues: just before the next matched frame, or after the last frame. Stitched
// levels come from an earlier sub-chain, so the stack captured later cannot hold their frames.
std::vector<StackRow> merge(const std::vector<KernelFrame>& frames, const Session& s,
                            const FormatContext& ctx) {
  StackBuilder out(ctx);
  std::vector<const StackCall*> frameless;
  size_t next = 0;
  for (const StackCall& call : s.calls) {
    size_t match = call.stitched
                       ? frames.size()
                       : find_frame(frames, next, lookup_func(ctx.funcs, call.func_id).name);
    if (match == frames.size()) {
      frameless.push_back(&call);
      continue;
    }
    for (; next < match; ++next) out.add_frame(frames[next], nullptr);
    out.add_frameless(frameless);
    frameless.clear();
    out.add_frame(frames[next++], &call);
  }
  for (; next < frames.size(); ++next) out.add_frame(frames[next], nullptr);
  out.add_frameless(frameless);
  return out.take();
}

struct StackWidths {
  size_t duration = kMinDurationWidth;
  size_t result = 0;
  size_t symbol = 0;
};

StackWidths measure(const std::vector<StackRow>& rows) {
  StackWidths w;
  for (const StackRow& row : rows) {
    w.duration = std::max(w.duration, display_width(row.duration));
    w.result = std::max(w.result, display_width(row.result));
    w.symbol = std::max(w.symbol, display_width(row.text.symbol));
  }
  return w;
}

std::string render(const StackRow& row, const StackWidths& w) {
  return trim_right(row.marks + " " + pad_left(row.duration, w.duration) + " " +
                    pad_right(row.result, w.result) + "  " + pad_right(row.text.symbol, w.symbol) +
                    "  " + row.text.source) +
         "\n";
}

}  // namespace

std::string format_stack(const Session& s, const FormatContext& ctx) {
  std::vector<StackRow> rows = merge(kernel_frames(s, ctx), s, ctx);
  StackWidths widths = measure(rows);
  std::string out;
  for (const StackRow& row : rows) out += render(row, widths);
  return out;
}

}  // namespace retsnoop
