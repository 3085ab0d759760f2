// The functions globs are matched against: traceable names, one per (module, name).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "discovery/kallsyms.h"
#include "discovery/kernel_btf.h"
#include "discovery/traceable.h"

namespace retsnoop {

struct Candidate {
  std::string_view module;  // empty for vmlinux
  std::string_view name;
  uint32_t copies = 0;  // how many functions of this name the traceable list holds
};

// Unique (module, name) pairs of list in the order they first appear, without .cold fragments.
// The views point into list.
std::vector<Candidate> group_traceable(const std::vector<TraceableFunc>& list);

// Stand-in for available_filter_functions when tracefs can't be read: kallsyms functions whose
// source name has BTF, one entry per kallsyms copy. The entries point into ksyms, valid as long
// as its table does not change.
std::vector<TraceableFunc> traceable_from_kallsyms(const Kallsyms& ksyms, KernelBtf& btf);

}  // namespace retsnoop
