// What formatting works out once and then reuses: under a flood the same few kernel stacks come
// back in every session, and the time of day changes once a second. Each of those costs more to
// work out (symbol lookup, filter checks, snprintf, localtime_r) than to print.
#pragma once

#include <array>
#include <ctime>
#include <memory>
#include <string_view>
#include <unordered_map>

#include "format/frame_text.h"

namespace retsnoop {

// One kernel address as the stack views need it.
struct KernelFrame {
  SymbolizedAddr sym;
  bool tracing = false;               // machinery of the tracer itself (is_tracing_frame())
  std::vector<TextLine> lines;        // frame_lines() of the address
  std::vector<size_t> symbol_widths;  // display_width() of each line's symbol
};

// "HH:MM:SS" of local time for epoch seconds secs, into out.
void write_time_of_day(time_t secs, char (&out)[8]);

class StackLayoutCache;

// Shared, so that a frame handed out stays valid when the cache forgets it.
using KernelFramePtr = std::shared_ptr<const KernelFrame>;

KernelFramePtr make_kernel_frame(uint64_t addr, Symbolizer& symbolizer, const FormatOptions& opts);

// Serves one symbolizer and one set of options: the FormatContext that points to it. Not
// thread-safe: one formatting thread owns it.
class FormatCache {
 public:
  static constexpr size_t kDefaultMaxFrames = 1 << 16;

  explicit FormatCache(size_t max_frames = kDefaultMaxFrames);
  ~FormatCache();
  FormatCache(const FormatCache&) = delete;
  FormatCache& operator=(const FormatCache&) = delete;

  // Starts over once max_frames addresses are held: a long run over ever new stacks (module
  // loads, many processes' user-space frames do not count) keeps a bounded footprint.
  KernelFramePtr frame(uint64_t addr, Symbolizer& symbolizer, const FormatOptions& opts);
  size_t frame_count() const { return frames_.size(); }

  // "HH:MM:SS" of local time for epoch seconds secs.
  std::string_view time_of_day(time_t secs);

  // format_result() of res for kind. A session's rows fail with the same few values.
  const std::string& result(int64_t res, RetKind kind);

  // The stack views' rows by stack shape (format/stack_layout.h).
  StackLayoutCache& layouts() { return *layouts_; }

 private:
  std::unordered_map<uint64_t, KernelFramePtr> frames_;
  size_t max_frames_;
  std::unique_ptr<StackLayoutCache> layouts_;
  struct ResultText {
    bool used = false;
    int64_t res = 0;
    RetKind kind = RetKind::Int64;
    std::string text;
  };
  std::array<ResultText, 16> results_;  // by a hash of res and kind; a collision replaces
  time_t tod_secs_ = -1;
  char tod_[8] = {};
};

// The frame of addr, through ctx's cache when it has one.
KernelFramePtr kernel_frame(const FormatContext& ctx, uint64_t addr);

}  // namespace retsnoop
