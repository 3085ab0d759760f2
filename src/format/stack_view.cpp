#include "format/stack_view.h"

#include <algorithm>
#include <charconv>
#include <list>
#include <span>

#include "discovery/func_lookup.h"
#include "format/call_args.h"
#include "format/format_cache.h"
#include "format/frame_text.h"
#include "format/result_format.h"
#include "format/stack_layout.h"
#include "format/text_columns.h"

namespace retsnoop {
namespace {

// "73us" and "374us" share one 5-wide column: durations under a millisecond do not shift the
// other columns from one session to the next.
constexpr size_t kMinStackDurationWidth = 5;
// A typical rendered row, so that the text grows once or twice.
constexpr size_t kRowBytes = 80;

struct StackRow {
  char marks[2] = {' ', ' '};
  std::string duration;
  std::string result;
  const TextLine* text = nullptr;  // a cached kernel frame's line, or one of RowBuilder's own
  size_t symbol_width = 0;         // display_width(text->symbol), measured once
  std::vector<std::string> args;   // -A: lines under the row, aligned with its symbol
};

class RowBuilder {
 public:
  // levels: a row each at least (inlined frames add more).
  RowBuilder(const Session& s, const FormatContext& ctx, size_t levels) : s_(s), ctx_(ctx) {
    rows_.reserve(levels);
  }

  // The row's text must outlive the rows: the caller keeps the layout.
  void add(const LayoutRow& level) {
    StackRow& row = add_row(*level.text, level.symbol_width);
    std::copy_n(level.marks, sizeof(row.marks), row.marks);
    if (level.call >= 0) fill_call(row, s_.calls[size_t(level.call)]);
  }

  // -U: the user stack, innermost frame first.
  void add_user_frames() {
    if (!ctx_.user_symbols) return;
    for (size_t i = 0; i < s_.ustack.size(); ++i) {
      UserFrame frame = ctx_.user_symbols->symbolize(s_.pid, s_.id, s_.ustack[i], i > 0);
      const TextLine& text = own(user_frame_line(s_.ustack[i], frame, ctx_.opts));
      add_row(text, display_width(text.symbol));
    }
  }

  const std::vector<StackRow>& rows() const { return rows_; }

 private:
  StackRow& add_row(const TextLine& text, size_t symbol_width) {
    return rows_.emplace_back(StackRow{.text = &text, .symbol_width = symbol_width});
  }

  const TextLine& own(TextLine&& line) { return owned_.emplace_back(std::move(line)); }

  void fill_call(StackRow& row, const StackCall& call) const {
    row.args = call_arg_lines(s_, call.seq, ctx_.args);
    if (call.running) return;  // interim report: the call has not returned yet
    char buf[24];
    row.duration.assign(buf, std::to_chars(buf, buf + sizeof(buf), call.dur_ns / 1000).ptr);
    row.duration += "us";
    RetKind kind = lookup_func(ctx_.funcs, call.func_id).ret;
    row.result = ctx_.cache ? ctx_.cache->result(call.res, kind) : format_result(call.res, kind);
  }

  const Session& s_;
  const FormatContext& ctx_;
  std::vector<StackRow> rows_;
  std::list<TextLine> owned_;  // never moves what it holds, allocates nothing while empty
};

struct StackWidths {
  size_t duration = kMinStackDurationWidth;
  size_t result = 0;
  size_t symbol = 0;
};

StackWidths measure_stack(std::span<const StackRow> rows) {
  StackWidths w;
  for (const StackRow& row : rows) {
    // Durations and results are ASCII.
    w.duration = std::max(w.duration, row.duration.size());
    w.result = std::max(w.result, row.result.size());
    w.symbol = std::max(w.symbol, row.symbol_width);
  }
  return w;
}

// Copies text and its padding to a display width of width at p; returns the end.
char* put_padded(char* p, std::string_view text, size_t text_width, size_t width, bool left) {
  size_t pad = text_width < width ? width - text_width : 0;
  if (left) p = std::fill_n(p, pad, ' ');
  p = std::copy(text.begin(), text.end(), p);
  return left ? p : std::fill_n(p, pad, ' ');
}

// Grows out once per row and copies the columns in: a flood renders every row of every session.
void render_stack_row(std::string& out, const StackRow& row, const StackWidths& w) {
  const std::string_view symbol = row.text->symbol, source = row.text->source;
  size_t line_start = out.size();
  size_t duration_w = std::max(w.duration, row.duration.size());
  size_t result_w = std::max(w.result, row.result.size());
  // Without a source column the symbol's padding would trail: it is left out, and so is any
  // space the line still ends in.
  size_t symbol_w = source.empty()
                        ? symbol.size()
                        : std::max(w.symbol, row.symbol_width) + symbol.size() - row.symbol_width;
  size_t source_w = source.empty() ? 0 : 2 + source.size();
  out.resize(line_start + sizeof(row.marks) + 1 + duration_w + 1 + result_w + 2 + symbol_w +
             source_w);
  char* p = out.data() + line_start;
  p = std::copy_n(row.marks, sizeof(row.marks), p);
  *p++ = ' ';
  p = put_padded(p, row.duration, row.duration.size(), w.duration, true);
  *p++ = ' ';
  p = put_padded(p, row.result, row.result.size(), w.result, false);
  p = std::fill_n(p, 2, ' ');
  if (source.empty()) {
    std::copy(symbol.begin(), symbol.end(), p);
  } else {
    p = put_padded(p, symbol, row.symbol_width, w.symbol, false);
    p = std::fill_n(p, 2, ' ');
    std::copy(source.begin(), source.end(), p);
  }
  size_t end = out.size();
  while (end > line_start && out[end - 1] == ' ') --end;
  out.resize(end);
  out += '\n';
  size_t indent = sizeof(row.marks) + 1 + w.duration + 1 + w.result + 2;
  for (const std::string& arg : row.args) {
    out.append(indent, ' ');
    out += arg;
    out += '\n';
  }
}

}  // namespace

void append_stack(std::string& out, const Session& s, const FormatContext& ctx) {
  std::shared_ptr<const StackLayout> layout = stack_layout(s, ctx);
  RowBuilder builder(s, ctx, layout->rows.size() + s.ustack.size());
  for (const LayoutRow& level : layout->rows) builder.add(level);
  size_t kernel_rows = builder.rows().size();
  builder.add_user_frames();
  std::span<const StackRow> rows = builder.rows();
  std::span<const StackRow> kernel = rows.first(kernel_rows), user = rows.subspan(kernel_rows);
  StackWidths widths = measure_stack(kernel);
  out.reserve(out.size() + rows.size() * kRowBytes);
  for (const StackRow& row : kernel) render_stack_row(out, row, widths);
  // User symbols run much longer: their own symbol width, the kernel's other columns.
  widths.symbol = measure_stack(user).symbol;
  for (const StackRow& row : user) render_stack_row(out, row, widths);
}

}  // namespace retsnoop
