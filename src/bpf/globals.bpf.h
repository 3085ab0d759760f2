/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What the programs share with user space: the knobs it sets before load, the state it reads or
 * advances while tracing, and the ring buffer every record goes through. BPF only; the first of
 * the headers tracer.bpf.c includes, as every other one reads these.
 */
#ifndef RETSNOOP_BPF_GLOBALS_BPF_H
#define RETSNOOP_BPF_GLOBALS_BPF_H

#include "vmlinux_min.h"
#include <bpf/bpf_helpers.h>
#include "abi.h"

/* Set by user space before load. */
const volatile bool success_stacks = false;  /* -S */
const volatile bool emit_trace = false;      /* -T */
const volatile bool capture_lbr = false;     /* --lbr */
const volatile bool interim_stacks = false;  /* -I */
const volatile __u64 min_duration_ns = 0;    /* -L */
const volatile bool has_pid_allow = false;   /* -p given */
const volatile bool has_comm_allow = false;  /* -n given */
const volatile bool has_pid_filter = false;  /* -p or -P given */
const volatile bool has_comm_filter = false; /* -n or -N given */
const volatile bool follow_command = false;  /* command mode: only command_pids are traced */
const volatile bool capture_ustack = false;  /* -U */
const volatile bool count_repeats = false;   /* -C stacks.repeats=count */
const volatile __u32 max_sessions = 1;       /* -C bpf.sessions-size: open at the same time */
const volatile __u32 session_slots = 1;      /* the sessions map's size */
const volatile __u32 cpu_bits = 0;           /* session_bits' first bits, for idle tasks */
const volatile __u32 func_slot_mask = 0;     /* func_slots' size minus one */
/*
 * What the kernel offers beyond Linux 5.10, probed by user space (kernel/features.h). Code
 * behind a false knob is dead at load: the verifier never sees its helper calls or atomics.
 */
const volatile bool has_cookie = true;       /* bpf_get_attach_cookie(), 5.15 */
const volatile bool has_func_ip = true;      /* bpf_get_func_ip() of kprobes, 5.15 */
const volatile bool has_task_btf = true;     /* bpf_get_current_task_btf(), 5.11 */
const volatile bool has_task_storage = true; /* task local storage, 5.11 */
/*
 * Before 5.15 a stack taken in a kretprobe does not unwind past the kretprobe trampoline: the
 * kernel stack is then taken when the session opens, at its entry call.
 */
const volatile bool kstack_at_entry = false;
/* Without bpf_get_func_ip(): kallsyms addresses of current_kprobe and __per_cpu_offset[]. */
const volatile __u64 current_kprobe_addr = 0;
const volatile __u64 per_cpu_offset_addr = 0;
/* Without cookies, for -J kretprobes: the pre-handler every kretprobe's kprobe runs. */
const volatile __u64 kretprobe_pre_handler_addr = 0;

/*
 * Before 5.12 the verifier refuses atomics that return a value (compare-and-swap, exchange,
 * fetch-add, fetch-or) anywhere in a program, even where it never runs: this file is built a
 * second time without them (RS_NO_ATOMIC_FETCH), and user space loads that build there.
 */
#ifdef RS_NO_ATOMIC_FETCH
#define has_atomic_fetch false
#else
#define has_atomic_fetch true
#endif

/* Flipped by user space once every probe is attached: until then handlers do nothing. */
bool ready = false;
/* -C stacks.repeats=count: advanced by user space; see struct rs_repeat_key. */
__u64 repeat_interval = 0;
/* Set by user space while its reader waits for records; see header_wakeup(). */
bool reader_waiting = false;
struct rs_stats stats = {};

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 8 << 20); /* resized by user space */
} rb SEC(".maps");

#endif /* RETSNOOP_BPF_GLOBALS_BPF_H */
