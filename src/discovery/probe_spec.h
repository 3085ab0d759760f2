// Injected probes (-J) as the user types them: point probes that show up inside a session's call
// trace but never open one.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace retsnoop {

enum class InjectKind : uint8_t { Kprobe, Kretprobe, Tracepoint, RawTracepoint };

// One probe. Before expansion, category (tracepoints) and name (tracepoints and raw tracepoints)
// may be globs; after it, every field names one kernel object.
struct ProbeSpec {
  InjectKind kind = InjectKind::Kprobe;
  std::string category;  // Tracepoint only
  std::string name;      // function, tracepoint or raw tracepoint
  uint64_t offset = 0;   // Kprobe only: bytes into the function
  bool operator==(const ProbeSpec&) const = default;
};

// Probe id (the index, which BPF records carry) -> probe.
using ProbeTable = std::vector<ProbeSpec>;

// "kprobe", "kretprobe", "tp", "rawtp": the prefix of the spec.
std::string_view inject_kind_name(InjectKind kind);

// The spec without its kind: "bprm_execve+0x5", "sched:sched_process_exec".
std::string probe_target(const ProbeSpec& p);

// The spec as it is written: "kprobe:bprm_execve+0x5", "tp:sched:sched_process_exec".
std::string probe_label(const ProbeSpec& p);

// Parses "kprobe:FUNC[+OFFSET]", "kretprobe:FUNC", "tp:CATEGORY:NAME" or "rawtp:NAME". Throws
// UserError naming the spec and the accepted forms.
ProbeSpec parse_probe_spec(std::string_view text);

// Parses every -J argument, replacing each "@FILE" by the specs FILE lists: one per line, blank
// lines and '#' comments ignored.
std::vector<ProbeSpec> parse_probe_args(const std::vector<std::string>& typed);

}  // namespace retsnoop
