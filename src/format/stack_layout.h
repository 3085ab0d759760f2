// The rows of a kernel stack view as far as the stack's shape decides them: which frame line or
// traced function each row shows, its markers, and which call's duration and result go on it.
// Under a flood the same shape comes back in every session, and merging frames with calls costs
// more than printing the rows, so a FormatCache keeps the layouts it has worked out.
#pragma once

#include <cstdint>
#include <list>
#include <memory>
#include <unordered_map>
#include <vector>

#include "events/session.h"
#include "format/format_cache.h"

namespace retsnoop {

struct LayoutRow {
  const TextLine* text = nullptr;  // owned by the layout's frames or its own lines
  size_t symbol_width = 0;         // display_width(text->symbol)
  char marks[2] = {' ', ' '};      // '!': a call without a kernel frame, '*': a stitched one
  int call = -1;                   // index into Session::calls of the call on this row, if any
};

struct StackLayout {
  std::vector<LayoutRow> rows;
  std::vector<KernelFramePtr> frames;  // keep the rows' text valid when the frame cache forgets
  std::list<TextLine> own_lines;       // traced functions without a frame; never move
};

// The layout of s's kernel stack and traced calls (merge_stack()).
StackLayout make_stack_layout(const Session& s, const FormatContext& ctx);

// Layouts by shape: the kernel stack's addresses and each call's function and stitched flag;
// durations, results and whether a call was still running do not change the rows. Serves one
// FormatContext, like the FormatCache that holds it.
class StackLayoutCache {
 public:
  static constexpr size_t kDefaultMaxLayouts = 4096;

  explicit StackLayoutCache(size_t max_layouts = kDefaultMaxLayouts) : max_layouts_(max_layouts) {}

  // Starts over once max_layouts shapes are held; a layout handed out stays valid.
  std::shared_ptr<const StackLayout> layout(const Session& s, const FormatContext& ctx);
  size_t size() const { return layouts_.size(); }

 private:
  struct WordsHash {
    size_t operator()(const std::vector<uint64_t>& words) const;
  };

  std::unordered_map<std::vector<uint64_t>, std::shared_ptr<const StackLayout>, WordsHash> layouts_;
  std::vector<uint64_t> key_;  // reused: a lookup allocates nothing
  size_t max_layouts_;
};

// s's layout, through ctx's cache when it has one.
std::shared_ptr<const StackLayout> stack_layout(const Session& s, const FormatContext& ctx);

}  // namespace retsnoop
