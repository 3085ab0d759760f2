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

/*
 * Set by user space before load. Flags are __u8: the skeleton spells bool as C's _Bool, which C++
 * does not have.
 */
const volatile __u8 success_stacks = 0;   /* -S */
const volatile __u8 emit_trace = 0;       /* -T */
const volatile __u8 capture_lbr = 0;      /* --lbr */
const volatile __u8 interim_stacks = 0;   /* -I */
const volatile __u64 min_duration_ns = 0; /* -L */
const volatile __u8 has_pid_allow = 0;    /* -p given */
const volatile __u8 has_comm_allow = 0;   /* -n given */
const volatile __u8 has_pid_filter = 0;   /* -p or -P given */
const volatile __u8 has_comm_filter = 0;  /* -n or -N given */
const volatile __u8 follow_command = 0;   /* command mode: only command_pids are traced */
const volatile __u8 capture_ustack = 0;   /* -U */
const volatile __u8 count_repeats = 0;    /* -C stacks.repeats=count */
const volatile __u32 max_sessions = 1;    /* -C bpf.sessions-size: open at the same time */
const volatile __u32 session_slots = 1;   /* the sessions map's size */
const volatile __u32 cpu_bits = 0;        /* session_bits' first bits, for idle tasks */
const volatile __u32 func_slot_mask = 0;  /* func_slots' size minus one */
/*
 * What the kernel offers beyond Linux 5.10, probed by user space (kernel/features.h). Code
 * behind a false knob is dead at load: the verifier never sees its helper calls or atomics.
 */
const volatile __u8 has_cookie = 1;       /* bpf_get_attach_cookie(), 5.15 */
const volatile __u8 has_func_ip = 1;      /* bpf_get_func_ip() of kprobes, 5.15 */
const volatile __u8 has_task_btf = 1;     /* bpf_get_current_task_btf(), 5.11 */
const volatile __u8 has_task_storage = 1; /* task local storage, 5.11 */
/*
 * fentry/fexit copies know their function by RS_FUNC_MARK (func_mark.h), and read their
 * arguments and return value from the context: no trampoline link cookies before 5.19, no
 * bpf_get_func_arg()/bpf_get_func_ret() before 5.17.
 */
const volatile __u8 fentry_by_mark = 0;
/*
 * Before 5.15 a stack taken in a kretprobe does not unwind past the kretprobe trampoline: the
 * kernel stack of each traced call is then taken at its entry (entry_kstack.h).
 */
const volatile __u8 kstack_at_entry = 0;
/* There: the kallsyms address of kretprobe_trampoline, where an entry's stack stops. */
const volatile __u64 kretprobe_trampoline_addr = 0;
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
__u8 ready = 0;
/* -C stacks.repeats=count: advanced by user space; see struct rs_repeat_key. */
__u64 repeat_interval = 0;
/* Set by user space while its reader waits for records; see header_wakeup(). */
__u8 reader_waiting = 0;
struct rs_stats stats = {};

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 8 << 20); /* resized by user space */
} rb SEC(".maps");
/* The records worth a wake-up of the reader: 128 KiB of the default 8 MiB (header_wakeup()). */
#define RS_WAKEUP_FRACTION 64

/* Whether the ring buffer holds a batch of records worth waking the reader for. */
static __always_inline bool rb_batch_waits(void)
{
	return bpf_ringbuf_query(&rb, BPF_RB_AVAIL_DATA) >=
	       bpf_ringbuf_query(&rb, BPF_RB_RING_SIZE) / RS_WAKEUP_FRACTION;
}

#endif /* RETSNOOP_BPF_GLOBALS_BPF_H */
