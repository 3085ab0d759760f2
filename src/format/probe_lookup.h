// Probe id -> injected probe for the views; ids come from BPF records and are not trusted blindly.
#pragma once

#include <cstdint>
#include <string>

#include "discovery/probe_spec.h"

namespace retsnoop {

// nullptr for ids outside the table.
const ProbeSpec* lookup_probe(const ProbeTable& probes, uint32_t probe_id);

// "kprobe:bprm_execve+0x5", or "[unknown probe]" so a corrupt record degrades one line only.
std::string probe_label_of(const ProbeTable& probes, uint32_t probe_id);

}  // namespace retsnoop
