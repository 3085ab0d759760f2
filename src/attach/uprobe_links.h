// User-space functions' entry and return probes: one uprobe-multi link per binary and direction
// where the kernel has them (6.6+), else one perf uprobe per function and direction, the function
// id as BPF cookie either way; without cookies (before 5.15), one perf uprobe per function and
// direction, each running a copy of a template program that carries the function id. Owns every
// link, copy and perf event: destroying it takes them all off, and the kernel takes them off
// with the last descriptor when retsnoop dies.
#pragma once

#include <cstddef>
#include <vector>

#include "attach/link_ptr.h"
#include "attach/probe_pmu.h"
#include "attach/tracer_object.h"
#include "discovery/func_info.h"

namespace retsnoop {

class UprobeLinks {
 public:
  // Attaches to every user-space function of funcs (function id = index) with obj's uprobe
  // programs; throws UserError naming the binary or function the kernel refused, after taking
  // off those already attached.
  UprobeLinks(TracerObject& obj, const FuncTable& funcs);

  // Functions attached, an entry and a return probe each.
  size_t functions() const { return functions_; }
  void detach() {
    links_.clear();
    copies_.clear();
  }

 private:
  void attach_multi(TracerObject& obj, const FuncTable& funcs);
  void attach_single(TracerObject& obj, const FuncTable& funcs);
  void attach_by_mark(TracerObject& obj, const FuncTable& funcs);

  std::vector<LinkPtr> links_;
  std::vector<CopyProbe> copies_;
  size_t functions_ = 0;
};

// "uprobe-multi", "uprobe", "uprobe (one program per function)", "none": how -V -v and -v name
// a mode.
const char* uprobe_mode_name(UprobeMode mode);

}  // namespace retsnoop
