#include "format/probe_lookup.h"

namespace retsnoop {

const ProbeSpec* lookup_probe(const ProbeTable& probes, uint32_t probe_id) {
  return probe_id < probes.size() ? &probes[probe_id] : nullptr;
}

std::string probe_label_of(const ProbeTable& probes, uint32_t probe_id) {
  const ProbeSpec* p = lookup_probe(probes, probe_id);
  return p ? probe_label(*p) : "[unknown probe]";
}

}  // namespace retsnoop
