// -A for injected probes (-J): what a hit captures. Raw tracepoints pass their arguments as an
// array of 64-bit slots, typed by the kernel's btf_trace_NAME prototype; kprobes and
// kretprobes their registers, one struct pt_regs; classic tracepoints their record.
//
// A classic tracepoint's record is laid out from its tracefs format file, not from BTF: the
// file is exact for every event, while BTF names the record struct (trace_event_raw_CLASS)
// after the event class, which for the many events that share a class (DEFINE_EVENT) is not
// their name and is written nowhere BPF or tracefs can look it up; and attaching a tracepoint
// needs tracefs anyway. The file's C types say all the renderer needs: sizes, signedness,
// arrays, strings, pointers.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "discovery/func_args.h"
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

// A classic tracepoint's plan from its format file's text: argument 0 is the record up to its
// last field, read at the context (the record's address); then one argument per __data_loc
// field, at most RS_MAX_ARG_SLOTS - 1 of them (further ones are counted uncaptured). tp_fields
// shows them. An empty plan with a raw_reason when the text has no fields.
FuncArgs plan_tp_args(std::string_view format);

// Indexed like probes. The plans point into vmlinux: it must outlive them. Tracepoint formats
// come from the first of tracefs_dirs that has them.
std::vector<FuncArgs> plan_probe_args(const struct btf* vmlinux, const ProbeTable& probes,
                                      const std::vector<std::string>& tracefs_dirs);

}  // namespace retsnoop
