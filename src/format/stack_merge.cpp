#include "format/stack_merge.h"

#include "discovery/func_lookup.h"
#include "format/frame_filter.h"

namespace retsnoop {
namespace {

std::vector<MergedFrame> kernel_frames(const Session& s, const FormatContext& ctx) {
  std::vector<MergedFrame> frames;
  frames.reserve(s.kstack.size());  // formatting allocates per session: a flood feels each one
  for (uint64_t addr : s.kstack)
    frames.push_back({.has_frame = true, .addr = addr, .frame = kernel_frame(ctx, addr)});
  if (ctx.opts.unfiltered_stacks) return frames;
  size_t kept = 0;  // compacted in place: the next frame is read before it can be overwritten
  for (size_t i = 0; i < frames.size(); ++i) {
    bool call_site = i + 1 < frames.size() &&
                     is_fentry_call_site(frames[i].frame->sym, frames[i + 1].frame->sym);
    if (call_site || frames[i].frame->tracing) continue;
    if (kept != i) frames[kept] = std::move(frames[i]);
    ++kept;
  }
  frames.resize(kept);
  return frames;
}

size_t find_frame(const std::vector<MergedFrame>& frames, size_t from, const std::string& name) {
  for (size_t i = from; i < frames.size(); ++i)
    if (frames[i].frame->sym.found && frames[i].frame->sym.name == name) return i;
  return frames.size();
}

void add_frameless(std::vector<MergedFrame>& out, std::vector<const StackCall*>& calls) {
  for (const StackCall* call : calls) out.push_back(MergedFrame{.call = call});
  calls.clear();
}

}  // namespace

std::vector<MergedFrame> merge_stack(const Session& s, const FormatContext& ctx) {
  std::vector<MergedFrame> frames = kernel_frames(s, ctx);
  std::vector<MergedFrame> out;
  out.reserve(frames.size() + s.calls.size());
  std::vector<const StackCall*> frameless;
  size_t next = 0;
  for (const StackCall& call : s.calls) {
    const FuncInfo& func = lookup_func(ctx.funcs, call.func_id);
    // User-space calls made the system call the kernel stack starts with: they go above its
    // outermost frame, and never match a kernel frame of the same name.
    if (func.is_user() && next == 0 && frameless.empty()) {
      out.push_back(MergedFrame{.call = &call});
      continue;
    }
    size_t match =
        call.stitched || func.is_user() ? frames.size() : find_frame(frames, next, func.name);
    if (match == frames.size()) {
      frameless.push_back(&call);
      continue;
    }
    for (; next < match; ++next) out.push_back(std::move(frames[next]));
    add_frameless(out, frameless);
    out.push_back(std::move(frames[next++]));
    out.back().call = &call;
  }
  for (; next < frames.size(); ++next) out.push_back(std::move(frames[next]));
  add_frameless(out, frameless);
  return out;
}

}  // namespace retsnoop
