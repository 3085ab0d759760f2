/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Gates an entry call passes before it opens a session, beside -p/-n: --cgroup/--no-cgroup on
 * the calling task, --arg-filter on the call's arguments. BPF only; included by admission.bpf.h.
 * Without the options the knobs are false at load and the verifier drops both gates.
 */
#ifndef RETSNOOP_BPF_SESSION_GATES_H
#define RETSNOOP_BPF_SESSION_GATES_H

#include "vmlinux_min.h"
#include <bpf/bpf_helpers.h>
#include "abi.h"
#include "arg_capture.bpf.h" /* the argument slots the filter reads */

#define RS_FILTER_READ(dst, size, addr, user)                              \
	((user) ? bpf_probe_read_user((dst), (size), (const void *)(addr)) \
		: bpf_probe_read_kernel((dst), (size), (const void *)(addr)))
#define RS_FILTER_READ_STR(dst, size, addr, user)                              \
	((user) ? bpf_probe_read_user_str((dst), (size), (const void *)(addr)) \
		: bpf_probe_read_kernel_str((dst), (size), (const void *)(addr)))
#include "arg_filter.h"

/* Set by user space before load; flags are __u8 as in globals.bpf.h. */
const volatile __u8 has_arg_filter = 0;   /* --arg-filter */
const volatile __u32 cgroups_allowed = 0; /* --cgroup: cgroups[0..cgroups_allowed) */
const volatile __u32 cgroups_denied = 0;  /* --no-cgroup: the next cgroups_denied entries */

/* The cgroup-v2 directories of --cgroup, then of --no-cgroup. */
struct {
	__uint(type, BPF_MAP_TYPE_CGROUP_ARRAY);
	__uint(max_entries, RS_MAX_CGROUPS);
	__type(key, __u32);
	__type(value, __u32);
} cgroups SEC(".maps");

/* --arg-filter: the program of each entry function, by function id. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1); /* resized to the number of functions with --arg-filter */
	__type(key, __u32);
	__type(value, struct rs_arg_filter);
} arg_filters SEC(".maps");

struct arg_filter_buf {
	__u64 slots[RS_MAX_ARG_SLOTS];
	struct rs_filter_scratch sc;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct arg_filter_buf);
} arg_filter_bufs SEC(".maps");

/* A task in (or below) a --no-cgroup directory is refused; with --cgroup it must be in one. */
static __always_inline bool cgroup_admits(void)
{
	__u32 i;

	for (i = 0; i < RS_MAX_CGROUPS && i < cgroups_denied; i++)
		if (bpf_current_task_under_cgroup(&cgroups, cgroups_allowed + i) == 1)
			return false;
	if (!cgroups_allowed)
		return true;
	for (i = 0; i < RS_MAX_CGROUPS && i < cgroups_allowed; i++)
		if (bpf_current_task_under_cgroup(&cgroups, i) == 1)
			return true;
	return false;
}

/* Whether entry function id's call, in its entry program's context ctx, may open a session. */
static __always_inline bool arg_filter_admits(void *ctx, __u32 id)
{
	struct rs_arg_filter *f = bpf_map_lookup_elem(&arg_filters, &id);
	struct arg_filter_buf *b;
	__u32 zero = 0;

	if (!f || !f->cnt)
		return false;
	b = bpf_map_lookup_elem(&arg_filter_bufs, &zero);
	if (!b)
		return false;
	read_arg_slots(ctx, b->slots, SLOTS_CALL, f->stack_slots, f->slots_from);
	return rs_filter_run(f, b->slots, &b->sc);
}

#endif /* RETSNOOP_BPF_SESSION_GATES_H */
