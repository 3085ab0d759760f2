#include "format/lbr_view.h"

#include <algorithm>
#include <cstdio>

#include "discovery/func_lookup.h"
#include "format/frame_text.h"
#include "format/text_columns.h"
#include "util/strings.h"

namespace retsnoop {
namespace {

constexpr const char* kArrow = "  ->  ";
constexpr const char* kUnfilteredNotice =
    "No relevant LBR data were captured, showing unfiltered LBR stack!\n";

struct SymbolizedBranch {
  SymbolizedAddr from;
  SymbolizedAddr to;
};

struct BranchText {
  std::string label;  // "[#NN] "
  std::vector<TextLine> from;
  std::vector<TextLine> to;
};

struct LbrWidths {
  size_t from_symbol = 0;
  size_t from_source = 0;
  size_t to_symbol = 0;
};

// Branch targets are not return addresses: no "- 1" before the source lookup.
std::vector<SymbolizedBranch> symbolize(const Session& s, const FormatContext& ctx) {
  std::vector<SymbolizedBranch> out;
  for (const LbrRecord& r : s.lbr)
    out.push_back({ctx.symbolizer.symbolize(r.from, false), ctx.symbolizer.symbolize(r.to, false)});
  return out;
}

bool touches(const SymbolizedBranch& b, const std::string& func) {
  return (b.from.found && b.from.name == func) || (b.to.found && b.to.name == func);
}

// One past the newest record touching the deepest traced call; 0 when none does.
size_t relevant_end(const std::vector<SymbolizedBranch>& branches, const Session& s,
                    const FormatContext& ctx) {
  if (s.calls.empty()) return 0;
  const std::string& deepest = lookup_func(ctx.funcs, s.calls.back().func_id).name;
  for (size_t i = branches.size(); i > 0; --i)
    if (touches(branches[i - 1], deepest)) return i;
  return 0;
}

std::string label(size_t newest_first_index) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "[#%02zu] ", newest_first_index);
  return buf;
}

BranchText branch_text(const LbrRecord& r, const SymbolizedBranch& b, size_t index,
                       const FormatOptions& opts) {
  return {label(index), frame_lines(r.from, b.from, opts), frame_lines(r.to, b.to, opts)};
}

LbrWidths measure_branches(const std::vector<BranchText>& texts) {
  LbrWidths w;
  for (const BranchText& t : texts) {
    for (const TextLine& l : t.from) {
      w.from_symbol = std::max(w.from_symbol, display_width(l.symbol));
      w.from_source = std::max(w.from_source, display_width(l.source));
    }
    for (const TextLine& l : t.to) w.to_symbol = std::max(w.to_symbol, display_width(l.symbol));
  }
  return w;
}

// The source column disappears entirely when nothing has a known location (-sn).
std::string side(const TextLine& line, size_t symbol_width, size_t source_width) {
  std::string out = pad_right(line.symbol, symbol_width);
  if (source_width > 0) out += " " + pad_right(line.source, source_width);
  return out;
}

std::string render_branch(const BranchText& t, const LbrWidths& w) {
  static const TextLine blank;
  std::string out;
  size_t n = std::max(t.from.size(), t.to.size());
  for (size_t i = 0; i < n; ++i) {
    const TextLine& from = i < t.from.size() ? t.from[i] : blank;
    const TextLine& to = i < t.to.size() ? t.to[i] : blank;
    std::string lead = i == 0 ? t.label : std::string(t.label.size(), ' ');
    std::string arrow = i == 0 ? kArrow : std::string(display_width(kArrow), ' ');
    std::string line = lead;
    line.append(side(from, w.from_symbol, w.from_source))
        .append(arrow)
        .append(side(to, w.to_symbol, 0))
        .append(" ")
        .append(to.source);
    out += std::string(trim_right(line)) + "\n";
  }
  return out;
}

}  // namespace

std::string format_lbr(const Session& s, const FormatContext& ctx) {
  if (s.lbr.empty()) return "";
  std::vector<SymbolizedBranch> branches = symbolize(s, ctx);
  size_t end = ctx.opts.unfiltered_lbr ? branches.size() : relevant_end(branches, s, ctx);
  std::string out;
  if (end == 0) {
    end = branches.size();
    out = kUnfilteredNotice;
  }
  size_t begin =
      ctx.opts.lbr_max_count > 0 && end > ctx.opts.lbr_max_count ? end - ctx.opts.lbr_max_count : 0;
  std::vector<BranchText> texts;
  for (size_t i = begin; i < end; ++i)
    texts.push_back(branch_text(s.lbr[i], branches[i], branches.size() - 1 - i, ctx.opts));
  LbrWidths widths = measure_branches(texts);
  for (const BranchText& t : texts) out += render_branch(t, widths);
  return out;
}

}  // namespace retsnoop
