#include "events/stitch.h"

namespace retsnoop {

namespace {

StackCall to_call(const rs_frame& f, bool stitched) {
  return StackCall{f.func_id, f.seq, f.start_ns, f.dur_ns, f.res, stitched};
}

bool hangs_below(const std::vector<rs_frame>& frames, const std::vector<rs_frame>& saved) {
  if (frames.empty() || saved.size() <= frames.size()) return false;
  size_t last = frames.size() - 1;
  return saved[last].seq == frames[last].seq && saved[last].func_id == frames[last].func_id;
}

}  // namespace

std::vector<StackCall> stitch_chains(const std::vector<rs_frame>& frames,
                                     const std::vector<rs_frame>& saved) {
  std::vector<StackCall> calls;
  calls.reserve(frames.size() + saved.size());
  for (const auto& f : frames) calls.push_back(to_call(f, false));
  if (hangs_below(frames, saved)) {
    for (size_t i = frames.size(); i < saved.size(); ++i) calls.push_back(to_call(saved[i], true));
  }
  return calls;
}

}  // namespace retsnoop
