// --line-trace: a perf kprobe at each line probe's address, the line id as its BPF cookie. The
// kernel refuses some addresses (not an instruction boundary to its decoder, jump-label or
// alternative text, kprobe-blacklisted code): those lines are skipped, the rest of the function
// keeps its probes. Owns every link: destroying it takes them all off.
#pragma once

#include <cstdint>
#include <vector>

#include "attach/link_ptr.h"
#include "attach/tracer_object.h"
#include "discovery/line_plan.h"

namespace retsnoop {

struct SkippedLine {
  uint32_t id = 0;  // line id
  int err = 0;      // the kernel's errno
};

class LineProbeLinks {
 public:
  // Attaches the probes in id order; throws UserError when the kernel has no kprobe PMU or
  // refuses every probe, after taking off those already attached.
  LineProbeLinks(TracerObject& obj, const std::vector<LineProbe>& probes);

  size_t count() const { return links_.size(); }
  const std::vector<SkippedLine>& skipped() const { return skipped_; }
  void detach() { links_.clear(); }

 private:
  std::vector<LinkPtr> links_;
  std::vector<SkippedLine> skipped_;
};

}  // namespace retsnoop
