#include "format/format_cache.h"

#include "format/frame_filter.h"
#include "format/result_format.h"
#include "format/stack_layout.h"
#include "format/text_columns.h"

namespace retsnoop {

KernelFramePtr make_kernel_frame(uint64_t addr, Symbolizer& symbolizer, const FormatOptions& opts) {
  auto frame = std::make_shared<KernelFrame>();
  frame->sym = symbolizer.symbolize(addr, true);
  frame->tracing = is_tracing_frame(frame->sym);
  frame->lines = frame_lines(addr, frame->sym, opts);
  for (const TextLine& line : frame->lines)
    frame->symbol_widths.push_back(display_width(line.symbol));
  return frame;
}

FormatCache::FormatCache(size_t max_frames)
    : max_frames_(max_frames), layouts_(std::make_unique<StackLayoutCache>()) {}

FormatCache::~FormatCache() = default;

KernelFramePtr FormatCache::frame(uint64_t addr, Symbolizer& symbolizer,
                                  const FormatOptions& opts) {
  auto it = frames_.find(addr);
  if (it != frames_.end()) return it->second;
  if (frames_.size() >= max_frames_) frames_.clear();
  KernelFramePtr frame = make_kernel_frame(addr, symbolizer, opts);
  frames_.emplace(addr, frame);
  return frame;
}

void write_time_of_day(time_t secs, char (&out)[8]) {
  struct tm tm {};
  localtime_r(&secs, &tm);
  int parts[] = {tm.tm_hour, tm.tm_min, tm.tm_sec};
  for (int i = 0; i < 3; ++i) {
    out[i * 3] = char('0' + parts[i] / 10 % 10);
    out[i * 3 + 1] = char('0' + parts[i] % 10);
    if (i < 2) out[i * 3 + 2] = ':';
  }
}

std::string_view FormatCache::time_of_day(time_t secs) {
  if (secs != tod_secs_) {
    write_time_of_day(secs, tod_);
    tod_secs_ = secs;
  }
  return {tod_, sizeof(tod_)};
}

const std::string& FormatCache::result(int64_t res, RetKind kind) {
  uint64_t h = (uint64_t(res) * 0x9e3779b97f4a7c15ull) ^ uint64_t(kind);
  ResultText& slot = results_[(h >> 32) % results_.size()];
  if (!slot.used || slot.res != res || slot.kind != kind) {
    slot.text = format_result(res, kind);
    slot.used = true;
    slot.res = res;
    slot.kind = kind;
  }
  return slot.text;
}

KernelFramePtr kernel_frame(const FormatContext& ctx, uint64_t addr) {
  if (ctx.cache) return ctx.cache->frame(addr, ctx.symbolizer, ctx.opts);
  return make_kernel_frame(addr, ctx.symbolizer, ctx.opts);
}

}  // namespace retsnoop
