// -J specs checked against the running kernel: globs expanded, kprobe functions and offsets
// looked up, before anything is loaded or attached.
#pragma once

#include <string>
#include <vector>

#include "discovery/probe_spec.h"
#include "discovery/traceable.h"

namespace retsnoop {

class Kallsyms;

struct ProbeSources {
  std::vector<std::string> tracefs_dirs = kDefaultTracefsDirs;
  std::string vmlinux_btf = "/sys/kernel/btf/vmlinux";
};

// One probe per kprobe and kretprobe spec, one per tracepoint a glob matches (in the order the
// specs were given, each glob's matches sorted, duplicates dropped). Throws UserError for an
// unknown function, an offset outside its function, or a glob that matches nothing.
ProbeTable plan_probes(const std::vector<ProbeSpec>& specs, const ProbeSources& src,
                       Kallsyms& ksyms);

// The --dry-run -v listing: "Injected probes (N):" and one "  LABEL" line per probe; empty when
// there are none.
std::string render_probes(const ProbeTable& probes);

}  // namespace retsnoop
