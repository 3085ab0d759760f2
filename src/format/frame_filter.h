// Kernel stack frames that belong to the tracing machinery rather than to the traced code.
#pragma once

#include "symbolize/symbolizer.h"

namespace retsnoop {

// BPF programs and trampolines ("bpf_prog_<tag>[_name]", "bpf_trampoline_<id>", anything in the
// [bpf] pseudo-module) and the kprobe/ftrace/rethook return trampolines. Real kernel functions
// such as bpf_prog_load are kept.
bool is_tracing_frame(const SymbolizedAddr& sym);

}  // namespace retsnoop
