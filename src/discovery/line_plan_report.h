// --dry-run -v and -v: the line probes --line-trace would place.
#pragma once

#include <string>

#include "discovery/line_plan.h"

namespace retsnoop {

// "Line probes (N) in M functions:", then one line per probe
// ("  func+0x13  kernel/bpf/arraymap.c:54"). Empty without line probes or below -v.
std::string render_line_plan(const LinePlan& plan, int verbosity);

}  // namespace retsnoop
