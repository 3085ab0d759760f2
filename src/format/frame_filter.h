// Kernel stack frames that belong to the tracing machinery rather than to the traced code.
#pragma once

#include "symbolize/symbolizer.h"

namespace retsnoop {

// BPF programs and trampolines ("bpf_prog_<tag>[_name]", "bpf_trampoline_<id>", anything in the
// [bpf] pseudo-module) and the kprobe/ftrace/rethook return trampolines. Real kernel functions
// such as bpf_prog_load are kept.
bool is_tracing_frame(const SymbolizedAddr& sym);

// Whether frame, with inner the next frame towards the top of the stack, is the return address
// of a function's patched fentry call into its BPF trampoline. With fexit the trampoline runs the
// function's body itself, so the function already has its own frame inside the trampoline (or
// none once it has returned, as in kprobe stacks); this outer one is an artifact of tracing.
bool is_fentry_call_site(const SymbolizedAddr& frame, const SymbolizedAddr& inner);

}  // namespace retsnoop
