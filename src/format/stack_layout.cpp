#include "format/stack_layout.h"

#include "discovery/func_lookup.h"
#include "format/stack_merge.h"
#include "format/text_columns.h"

namespace retsnoop {
namespace {

void add_level(StackLayout& layout, const MergedFrame& level, const Session& s,
               const FormatContext& ctx) {
  int call = level.call ? int(level.call - s.calls.data()) : -1;
  char stitched = level.call && level.call->stitched ? '*' : ' ';
  if (!level.has_frame) {
    const TextLine& text = layout.own_lines.emplace_back(
        func_line(lookup_func(ctx.funcs, level.call->func_id), ctx.opts));
    layout.rows.push_back({&text, display_width(text.symbol), {'!', stitched}, call});
    return;
  }
  const KernelFrame& frame = *layout.frames.emplace_back(level.frame);
  for (size_t i = 0; i < frame.lines.size(); ++i) {
    LayoutRow row{&frame.lines[i], frame.symbol_widths[i]};
    if (i == 0) {
      row.marks[1] = stitched;
      row.call = call;
    }
    layout.rows.push_back(row);
  }
}

// Every word of the shape, and the counts that keep two shapes from running into each other.
void shape_key(const Session& s, std::vector<uint64_t>& key) {
  key.clear();
  key.push_back(s.kstack.size());
  key.insert(key.end(), s.kstack.begin(), s.kstack.end());
  for (const StackCall& call : s.calls)
    key.push_back(uint64_t(call.func_id) | uint64_t(call.stitched) << 32);
}

}  // namespace

StackLayout make_stack_layout(const Session& s, const FormatContext& ctx) {
  StackLayout layout;
  std::vector<MergedFrame> levels = merge_stack(s, ctx);
  layout.rows.reserve(levels.size());
  layout.frames.reserve(levels.size());
  for (const MergedFrame& level : levels) add_level(layout, level, s, ctx);
  return layout;
}

size_t StackLayoutCache::WordsHash::operator()(const std::vector<uint64_t>& words) const {
  uint64_t h = 0xcbf29ce484222325ull;
  for (uint64_t w : words) h = (h ^ w) * 0x100000001b3ull ^ (h >> 29);
  return size_t(h);
}

std::shared_ptr<const StackLayout> StackLayoutCache::layout(const Session& s,
                                                            const FormatContext& ctx) {
  shape_key(s, key_);
  auto it = layouts_.find(key_);
  if (it != layouts_.end()) return it->second;
  if (layouts_.size() >= max_layouts_) layouts_.clear();
  auto layout = std::make_shared<const StackLayout>(make_stack_layout(s, ctx));
  layouts_.emplace(key_, layout);
  return layout;
}

std::shared_ptr<const StackLayout> stack_layout(const Session& s, const FormatContext& ctx) {
  if (ctx.cache) return ctx.cache->layouts().layout(s, ctx);
  return std::make_shared<const StackLayout>(make_stack_layout(s, ctx));
}

}  // namespace retsnoop
