// -A, with -v: how the arguments of the traced functions will be captured, and which functions
// fall back to raw registers and why; what each injected probe's hits will capture.
#pragma once

#include <string>
#include <vector>

#include "discovery/func_args.h"
#include "discovery/func_info.h"
#include "discovery/probe_spec.h"

namespace retsnoop {

// plans is indexed like funcs. A summary line, then a note per system call wrapper with the
// arguments it captures (at most kMaxRawNotes) and one per function name that falls back to
// raw registers (at most kMaxRawNotes, then how many more); every line ends in '\n'.
std::vector<std::string> func_args_notes(const FuncTable& funcs,
                                         const std::vector<FuncArgs>& plans);

inline constexpr size_t kMaxRawNotes = 20;

// plans is indexed like probes. A summary line, then per probe (at most kMaxRawNotes, then how
// many more) "  LABEL: name, name, ..." with what it shows (a tracepoint's fields, a raw
// tracepoint's arguments, a kprobe's regs), or "  LABEL: nothing, REASON"; lines end in '\n'.
std::vector<std::string> probe_args_notes(const ProbeTable& probes,
                                          const std::vector<FuncArgs>& plans);

}  // namespace retsnoop
