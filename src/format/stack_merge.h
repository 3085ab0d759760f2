// The kernel stack merged with the traced calls, outermost first: shared by the text stack view
// and the JSON output so that both tell the same story.
#pragma once

#include <cstdint>
#include <vector>

#include "events/session.h"
#include "format/format_cache.h"

namespace retsnoop {

struct MergedFrame {
  bool has_frame = false;           // false: a traced call with no kernel frame ('!')
  uint64_t addr = 0;                // kernel frames only
  KernelFramePtr frame;             // kernel frames only
  const StackCall* call = nullptr;  // the traced call at this level, if any
};

// Kernel frames are symbolized as return addresses; tracing-machinery frames, and the fentry
// call sites just outside BPF trampolines, are dropped unless unfiltered stacks were asked for.
// Each traced call is matched to the next kernel frame of the same name (greedy, so recursion pairs
// up in order); calls without a frame come where the stack continues: just before the next matched
// frame, or after the last frame. Stitched levels come from an earlier sub-chain, so the stack
// captured later cannot hold their frames.
std::vector<MergedFrame> merge_stack(const Session& s, const FormatContext& ctx);

}  // namespace retsnoop
