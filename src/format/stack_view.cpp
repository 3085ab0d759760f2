#include "format/stack_view.h"

#include <algorithm>

#include "format/call_args.h"
#include "format/frame_text.h"
#include "format/func_lookup.h"
#include "format/result_format.h"
#include "format/stack_merge.h"
#include "format/text_columns.h"
#include "util/strings.h"

namespace retsnoop {
namespace {

// "73us" and "374us" share one 5-wide column: durations under a millisecond do not shift the
// other columns from one session to the next.
constexpr size_t kMinDurationWidth = 5;

struct StackRow {
  std::string marks = "  ";
  std::string duration;
  std::string result;
  TextLine text;
  std::vector<std::string> args;  // -A: lines under the row, aligned with its symbol
};

class RowBuilder {
 public:
  // levels: a row each at least (inlined frames add more).
  RowBuilder(const Session& s, const FormatContext& ctx, size_t levels) : s_(s), ctx_(ctx) {
    rows_.reserve(levels);
  }

  void add(const MergedFrame& level) {
    if (!level.has_frame) {
      StackRow row{.text = func_line(lookup_func(ctx_.funcs, level.call->func_id), ctx_.opts)};
      fill_call(row, *level.call);
      row.marks[0] = '!';
      rows_.push_back(std::move(row));
      return;
    }
    std::vector<TextLine> lines = frame_lines(level.addr, level.sym, ctx_.opts);
    for (size_t i = 0; i < lines.size(); ++i) {
      StackRow row{.text = std::move(lines[i])};
      if (i == 0 && level.call) fill_call(row, *level.call);
      rows_.push_back(std::move(row));
    }
  }

  std::vector<StackRow> take() { return std::move(rows_); }

 private:
  void fill_call(StackRow& row, const StackCall& call) const {
    if (call.stitched) row.marks[1] = '*';
    row.args = call_arg_lines(s_, call.seq, ctx_.args);
    if (call.running) return;  // interim report: the call has not returned yet
    row.duration = std::to_string(call.dur_ns / 1000) + "us";
    row.result = format_result(call.res, lookup_func(ctx_.funcs, call.func_id).ret);
  }

  const Session& s_;
  const FormatContext& ctx_;
  std::vector<StackRow> rows_;
};

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
  std::string line = row.marks + " " + pad_left(row.duration, w.duration) + " " +
                     pad_right(row.result, w.result) + "  " + pad_right(row.text.symbol, w.symbol) + "  " +
                     row.text.source;
  std::string out = std::string(trim_right(line)) + "\n";
  std::string indent(row.marks.size() + 1 + w.duration + 1 + w.result + 2, ' ');
  for (const std::string& arg : row.args) out += indent + arg + "\n";
  return out;
}

// -U: the user stack, innermost frame first, under the kernel's in its duration and result
// columns, with symbol widths of its own (user symbols run much longer).
std::vector<StackRow> user_rows(const Session& s, const FormatContext& ctx) {
  std::vector<StackRow> rows;
  if (!ctx.user_symbols) return rows;
  for (size_t i = 0; i < s.ustack.size(); ++i) {
    UserFrame frame = ctx.user_symbols->symbolize(s.pid, s.id, s.ustack[i], i > 0);
    rows.push_back(StackRow{.text = user_frame_line(s.ustack[i], frame, ctx.opts)});
  }
  return rows;
}

}  // namespace

std::string format_stack(const Session& s, const FormatContext& ctx) {
  std::vector<MergedFrame> levels = merge_stack(s, ctx);
  RowBuilder builder(s, ctx, levels.size());
  for (const MergedFrame& level : levels) builder.add(level);
  std::vector<StackRow> rows = builder.take();
  StackWidths widths = measure(rows);
  std::string out;
  constexpr size_t kRowBytes = 80;  // a typical rendered row, so the text grows once or twice
  out.reserve(rows.size() * kRowBytes);
  for (const StackRow& row : rows) out += render(row, widths);
  std::vector<StackRow> user = user_rows(s, ctx);
  widths.symbol = measure(user).symbol;
  for (const StackRow& row : user) out += render(row, widths);
  return out;
}

}  // namespace retsnoop
