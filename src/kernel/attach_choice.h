// Which mechanism attaches, from -M/-K/-F and the feature table, and what discovery must know
// about it.
#pragma once

#include <string>

#include "attach/tracer_object.h"
#include "discovery/func_plan.h"
#include "kernel/attach_mode.h"
#include "kernel/features.h"

namespace retsnoop {

// Why this kernel cannot attach with kind ("not built into this kernel (CONFIG_KPROBES)"), from
// the feature table alone; empty when it can.
std::string attach_blocker(AttachKind kind, const Features& f);

// "kprobes: <why>; fentry: <why>" for every mechanism when none can attach; empty as soon as one
// can (the slower ones are then not asked: fentry's row attaches a probe program).
std::string why_nothing_attaches(const Features& f);

// Throws UserError naming what this kernel lacks for any mechanism: BTF (CO-RE and function
// prototypes), the BPF ring buffer, BPF cookies, a way to attach. btf_path: the kernel's BTF.
void check_kernel_support(const Features& f, const char* btf_path = "/sys/kernel/btf/vmlinux");

// By default the fastest the kernel supports: multi-kprobe, else single kprobes (on 6.1 with
// 1,000 functions, as kprobe events, they attach 2.8 times and detach 18 times faster than
// fentry: bench/attach.sh), else fentry.
// Throws UserError, with what works instead, when -F or -K is asked of a kernel that cannot do it.
AttachKind choose_attach_kind(AttachMode mode, const Features& f);

// Whether single kprobes can go through tracefs kprobe events: the programs then find the
// function by bpf_get_func_ip() (5.15+), and kprobe_events must be writable.
bool kprobe_events_usable();

// Whether single kprobes attach faster overall as tracefs kprobe events than as a perf event
// each: where detaching a perf event waits for a grace period (Feature::PerfDetachWait, 6.1+),
// a chunk's one wait beats one per probe. Without that wait (5.10) perf kprobes win: defining
// tracefs events there took four times as long as opening perf kprobes, and their detach saves
// little.
bool kprobe_events_pay_off(const Features& f);

// How user-space functions attach here: uprobe-multi links, else single uprobes with BPF cookies,
// else single uprobes whose program copies carry the function id. Throws UserError when this
// kernel has no uprobes.
UprobeMode choose_uprobe_mode(const Features& f);

// -V -v's line on user-space functions: the mode, or why they cannot be traced.
std::string uprobe_support(const Features& f);

// fentry attaches by BTF id.
void plan_for_attach(PlanOptions& p, AttachKind kind);

}  // namespace retsnoop
