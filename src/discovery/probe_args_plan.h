// -A for injected probes (-J): what a hit captures. Raw tracepoints pass their arguments as an
// array of 64-bit slots, typed by the kernel's btf_trace_NAME prototype; kprobes and
// kretprobes their registers, one struct pt_regs; classic tracepoints nothing (an empty plan).
#pragma once

#include <string_view>
#include <vector>

#include "discovery/arg_plan.h"
#include "discovery/probe_spec.h"

struct btf;

namespace retsnoop {

// The plan of raw tracepoint name from vmlinux's BTF: the btf_trace_NAME prototype's parameters
// after its first (the tracepoint's private data, not passed to BPF), in slots from 0. An empty
// plan with a raw_reason when the type is missing or unusable.
FuncArgs plan_raw_tp_args(const struct btf* vmlinux, std::string_view name);

// One argument "regs", a kernel pointer to struct pt_regs whose address BPF puts in slot 0. An
// empty plan with a raw_reason when vmlinux's BTF has no pointer to that struct.
FuncArgs plan_kprobe_args(const struct btf* vmlinux);

// Indexed like probes. The plans point into vmlinux: it must outlive them.
std::vector<FuncArgs> plan_probe_args(const struct btf* vmlinux, const ProbeTable& probes);

}  // namespace retsnoop
