// Without BPF cookies (before 5.15) the program of injected kprobes (-J) knows a hit by what it
// sees: the probed address and kind (bpf/abi.h, struct rs_probe_key). These are the keys of a
// probe table's kprobes; tracepoints get program copies, which need their event type.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bpf/abi.h"
#include "discovery/kallsyms.h"
#include "discovery/probe_spec.h"

namespace retsnoop {

// One key per probe, in probe id order; other probes, which need none (RS_PROBE_ID_MARK), get
// a zero key. Throws UserError naming a kprobe on a function kallsyms does not list.
std::vector<rs_probe_key> plan_probe_keys(const ProbeTable& probes, const Kallsyms& ksyms);

// The event type a tracepoint's format text names ("ID: 312"); nullopt when it names none.
std::optional<uint32_t> tp_event_type(std::string_view format_text);

// The event type of tracepoint CATEGORY:NAME from its format file under the first of
// tracefs_dirs that has one; nullopt when none has.
std::optional<uint32_t> read_tp_event_type(const std::vector<std::string>& tracefs_dirs,
                                           std::string_view category, std::string_view name);

}  // namespace retsnoop
