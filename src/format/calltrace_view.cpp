#include "format/calltrace_view.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <map>

#include "discovery/func_lookup.h"
#include "format/call_args.h"
#include "format/frame_text.h"
#include "format/kernel_messages_view.h"
#include "format/line_trace_view.h"
#include "format/probe_lookup.h"
#include "format/result_format.h"
#include "format/text_columns.h"
#include "util/strings.h"

namespace retsnoop {
namespace {

constexpr size_t kMaxIndentLevels = 20;  // deeper calls stay readable on a normal terminal
constexpr const char* kGapText = "[...]";

// The reference layout of the -T table: columns never get narrower than this, only wider.
constexpr size_t kMinFuncWidth = 47;
constexpr size_t kMinResultWidth = 20;
constexpr size_t kMinCalltraceDurationWidth = 9;

struct TraceRow {
  std::string func;  // indentation, arrow, name
  std::string result;
  std::string duration;
  // -A: compact arguments after an entry row's name (not counted in the column width: entry
  // rows have no other columns), and lines under the row, aligned with the name.
  std::string inline_args;
  std::vector<std::string> args;
};

std::string indent(size_t level) { return std::string(4 * std::min(level, kMaxIndentLevels), ' '); }

// "5.539us", exact from integer nanoseconds.
std::string duration_text(uint64_t ns) {
  char buf[48];
  std::snprintf(buf, sizeof(buf), "%" PRIu64 ".%03" PRIu64 "us", ns / 1000, ns % 1000);
  return buf;
}

class TraceTable {
 public:
  TraceTable(const Session& s, const FormatContext& ctx) : s_(s), recs_(s.trace), ctx_(ctx) {
    for (const TraceRecord& r : recs_) {
      base_depth_ = std::min<size_t>(base_depth_, r.depth);
      if (r.kind == TraceRecordKind::Entry) call_depth_[r.call_seq] = r.depth;
    }
  }

  std::vector<TraceRow> rows() {
    if (recs_.empty()) return {};
    if (recs_.front().seq > 0) rows_.push_back({indent(level(recs_.front())) + kGapText, "", ""});
    for (size_t i = 0; i < recs_.size(); ++i) {
      if (i > 0 && recs_[i].seq != recs_[i - 1].seq + 1) add_gap(recs_[i - 1], recs_[i]);
      add_lines_before(recs_[i].seq);
      add_messages_before(recs_[i]);
      if (is_leaf(i)) {
        add_leaf(recs_[i], recs_[i + 1]);
        ++i;
      } else if (recs_[i].kind == TraceRecordKind::Entry) {
        add_entry(recs_[i]);
      } else if (recs_[i].kind == TraceRecordKind::Probe) {
        add_probe(recs_[i]);
      } else {
        add_exit(recs_[i]);
      }
    }
    add_lines_before(UINT32_MAX);
    add_messages_until(UINT64_MAX,
                       level(recs_.back()) + (recs_.back().kind == TraceRecordKind::Entry ? 1 : 0));
    add_trailing_gap();
    return std::move(rows_);
  }

 private:
  size_t level(const TraceRecord& r) const { return r.depth - base_depth_; }

  // Entry and exit of one call share a depth; an exit of the same function right after the
  // entry, with no record lost and no source line hit in between, is a call without traced
  // children.
  bool is_leaf(size_t i) const {
    if (i + 1 >= recs_.size() || recs_[i].kind != TraceRecordKind::Entry) return false;
    const TraceRecord& exit = recs_[i + 1];
    return exit.kind == TraceRecordKind::Exit && exit.func_id == recs_[i].func_id &&
           exit.depth == recs_[i].depth && exit.seq == recs_[i].seq + 1 && !line_due(exit.seq) &&
           !message_due(recs_[i].ts_ns + exit.dur_ns);
  }

  bool message_due(uint64_t ts) const {
    return next_msg_ < s_.messages.size() && s_.messages[next_msg_].time_ns < ts;
  }

  // When the record was made: an exit's time is its entry's plus its duration, unknown (0: no
  // message goes before it) when the entry was lost.
  uint64_t record_time(const TraceRecord& r) const {
    if (r.kind != TraceRecordKind::Exit) return r.ts_ns;
    auto it = entry_ts_.find(r.depth);
    return entry_shown(r) && it != entry_ts_.end() ? it->second + r.dur_ns : 0;
  }

  // The kernel's messages emitted before record r, inside the calls open then: a sibling of an
  // entry or probe, a child of the call an exit closes.
  void add_messages_before(const TraceRecord& r) {
    add_messages_until(record_time(r), level(r) + (r.kind == TraceRecordKind::Exit ? 1 : 0));
  }

  void add_messages_until(uint64_t ts, size_t lvl) {
    for (; message_due(ts); ++next_msg_) {
      rows_.push_back(
          {indent(lvl) + "» " + kernel_message_line(s_.messages[next_msg_], ctx_), "", ""});
    }
  }

  bool line_due(uint32_t seq) const {
    return next_line_ < s_.lines.size() && s_.lines[next_line_].trace_seq <= seq;
  }

  // --line-trace: the hits that came before record seq, one level inside the call they ran in;
  // a line hit again right away (a loop on one line) is one row with its count.
  void add_lines_before(uint32_t seq) {
    while (line_due(seq)) {
      const LineHit& hit = s_.lines[next_line_];
      size_t count = 1;
      while (++next_line_ < s_.lines.size() && s_.lines[next_line_].line_id == hit.line_id &&
             line_due(seq))
        ++count;
      add_line(hit, count);
    }
  }

  void add_line(const LineHit& hit, size_t count) {
    auto depth = call_depth_.find(hit.call_seq);
    size_t lvl = depth == call_depth_.end() ? 0 : depth->second + 1 - base_depth_;
    std::vector<TextLine> lines = line_hit_lines(hit, ctx_);
    for (size_t i = 0; i < lines.size(); ++i) {
      std::string text = (i == 0 ? "· " : "  ") + lines[i].symbol;
      if (!lines[i].source.empty()) text += " " + lines[i].source;
      if (i == 0 && count > 1) text += " ×" + std::to_string(count);
      rows_.push_back({indent(lvl) + text, "", ""});
    }
  }

  // Whether the exit's entry has a row, i.e. was not lost.
  bool entry_shown(const TraceRecord& exit) const {
    auto it = open_.find(exit.depth);
    return it != open_.end() && it->second == exit.func_id;
  }

  // Indented as deep as the surrounding rows reach: inside a call that was open before the
  // gap or is closed after it. An exit whose entry is in the gap closes a call the gap began.
  // A probe hit sits where a nested call's entry would.
  void add_gap(const TraceRecord& prev, const TraceRecord& next) {
    bool closes = next.kind == TraceRecordKind::Exit && entry_shown(next);
    size_t after_prev = level(prev) + (prev.kind == TraceRecordKind::Entry ? 1 : 0);
    size_t before_next = level(next) + (closes ? 1 : 0);
    rows_.push_back({indent(std::max(after_prev, before_next)) + kGapText, "", ""});
  }

  // Records numbered past the last one received were lost (the session's header counts them):
  // the trace ends in a gap, typically when a flood filled the ring buffer before the reader
  // drained it.
  void add_trailing_gap() {
    const TraceRecord& last = recs_.back();
    if (uint64_t(last.seq) + 1 >= recs_.size() + uint64_t(s_.trace_lost)) return;
    size_t after = level(last) + (last.kind == TraceRecordKind::Entry ? 1 : 0);
    rows_.push_back({indent(after) + kGapText, "", ""});
  }

  void add_entry(const TraceRecord& r) {
    open_[r.depth] = r.func_id;
    entry_ts_[r.depth] = r.ts_ns;
    rows_.push_back({indent(level(r)) + "→ " + name(r), "", ""});
    add_args(r, true);
  }

  void add_leaf(const TraceRecord& entry, const TraceRecord& exit) {
    rows_.push_back(
        {indent(level(entry)) + "↔ " + name(entry), result(exit), duration_text(exit.dur_ns)});
    add_args(entry, false);
  }

  void add_args(const TraceRecord& entry, bool inline_compact) {
    place_args(call_arg_lines(s_, entry.call_seq, ctx_.args), name(entry), inline_compact);
  }

  // lines go next to the last row in compact mode when they are one and inline_compact allows,
  // otherwise under it, lined up with label, the row's text after its indentation and marker.
  void place_args(std::vector<std::string> lines, const std::string& label, bool inline_compact) {
    TraceRow& row = rows_.back();
    row.args = std::move(lines);
    if (inline_compact && ctx_.args && ctx_.args->opts.mode == ArgFmtMode::Compact &&
        row.args.size() == 1) {
      row.inline_args = std::move(row.args.front());
      row.args.clear();
    }
    std::string arg_indent(display_width(row.func) - display_width(label), ' ');
    for (std::string& line : row.args) line.insert(0, arg_indent);
  }

  void add_probe(const TraceRecord& r) {
    std::string label = probe_label_of(ctx_.probes, r.probe_id);
    rows_.push_back({indent(level(r)) + "◎ " + label, "", ""});
    place_args(probe_arg_lines(s_, r.seq, ctx_.args), label, true);
  }

  void add_exit(const TraceRecord& r) {
    open_.erase(r.depth);
    rows_.push_back({indent(level(r)) + "← " + name(r), result(r), duration_text(r.dur_ns)});
  }

  std::string name(const TraceRecord& r) const {
    const FuncInfo& f = lookup_func(ctx_.funcs, r.func_id);
    return f.is_user() ? traced_func_label(f) : f.name;
  }

  std::string result(const TraceRecord& r) const {
    return format_result(r.res, lookup_func(ctx_.funcs, r.func_id).ret);
  }

  const Session& s_;
  const std::vector<TraceRecord>& recs_;
  const FormatContext& ctx_;
  size_t base_depth_ = SIZE_MAX;
  std::map<size_t, uint32_t> open_;        // depth -> function of the entry row still open there
  std::map<uint32_t, size_t> call_depth_;  // call seq -> depth of its entry record
  std::map<size_t, uint64_t> entry_ts_;    // depth -> time of the entry row open there
  size_t next_line_ = 0;                   // the first line hit without a row yet
  size_t next_msg_ = 0;                    // the first kernel message without a row yet
  std::vector<TraceRow> rows_;
};

struct TraceWidths {
  size_t func = kMinFuncWidth;
  size_t result = kMinResultWidth;
  size_t duration = kMinCalltraceDurationWidth;
};

TraceWidths measure_trace(const std::vector<TraceRow>& rows) {
  TraceWidths w;
  for (const TraceRow& row : rows) {
    w.func = std::max(w.func, display_width(row.func));
    w.result = std::max(w.result, display_width(row.result));
    w.duration = std::max(w.duration, display_width(row.duration));
  }
  return w;
}

std::string render_trace_row(const TraceRow& row, const TraceWidths& w) {
  std::string func = row.inline_args.empty() ? row.func : row.func + "  " + row.inline_args;
  std::string line = pad_right(func, w.func) + "   " + pad_right(row.result, w.result) + "  " +
                     pad_left(row.duration, w.duration);
  std::string out = std::string(trim_right(line)) + "\n";
  for (const std::string& arg : row.args) out += arg + "\n";
  return out;
}

std::string header(const TraceWidths& w) {
  return render_trace_row({"FUNCTION CALL TRACE", "RESULT", "DURATION"}, w) +
         render_trace_row(
             {std::string(w.func, '-'), std::string(w.result, '-'), std::string(w.duration, '-')},
             w);
}

std::string lost_note(uint32_t lost) {
  const char* what = lost == 1 ? " call trace record was" : " call trace records were";
  return "WARNING: " + std::to_string(lost) + what + " lost, the trace above is incomplete\n";
}

}  // namespace

std::string format_calltrace(const Session& s, const FormatContext& ctx) {
  std::vector<TraceRow> rows = TraceTable(s, ctx).rows();
  TraceWidths widths = measure_trace(rows);
  std::string out = header(widths);
  for (const TraceRow& row : rows) out += render_trace_row(row, widths);
  if (s.trace_lost > 0) out += lost_note(s.trace_lost);
  return out;
}

}  // namespace retsnoop
