// Which mechanism attaches, from -M/-K/-F and the feature table, and what discovery must know
// about it.
#pragma once

#include "app/features.h"
#include "attach/tracer_object.h"
#include "cli/options.h"
#include "discovery/func_plan.h"

namespace retsnoop {

// Throws UserError naming what this kernel lacks for any mechanism: BTF (CO-RE and function
// prototypes), the BPF ring buffer, BPF cookies. btf_path: the kernel's BTF.
void check_kernel_support(const Features& f, const char* btf_path = "/sys/kernel/btf/vmlinux");

// By default the fastest the kernel supports: multi-kprobe, else single kprobes (on 6.1 with
// 1,000 functions, as kprobe events, they attach 2.8 times and detach 18 times faster than
// fentry: bench/attach.sh).
// Throws UserError when -F is asked of a kernel that cannot do it.
AttachKind choose_attach_kind(AttachMode mode, const Features& f);

// Whether single kprobes can go through tracefs kprobe events: the programs then find the
// function by bpf_get_func_ip() (5.15+), and kprobe_events must be writable.
bool kprobe_events_usable(const Features& f);

// fentry attaches by BTF id.
void plan_for_attach(PlanOptions& p, AttachKind kind);

}  // namespace retsnoop
