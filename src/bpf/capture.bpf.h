/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What a session captures while its calls run: the -T call records, the LBR snapshot every exit
 * takes before anything else, the kernel and user stacks of the deepest failure, and through
 * arg_capture.bpf.h the -A arguments. BPF only. Apart from report.bpf.h because these run on the
 * calls, a report once per session.
 */
#ifndef RETSNOOP_BPF_CAPTURE_BPF_H
#define RETSNOOP_BPF_CAPTURE_BPF_H

#include "vmlinux_min.h"
#include <bpf/bpf_helpers.h>
#include "abi.h"
#include "lbr_keep.h"
#include "entry_kstack.h"
#include "globals.bpf.h"
#include "session_table.bpf.h"
#include "arg_capture.bpf.h"

/* Kernel stack frames to ask for: see read_kstack(). */
__u32 kstack_want = 16;

/*
 * LBR mode: each exit's branch snapshot, taken before the exit looks anything up, and copied into
 * the session only if it keeps it (lbr_keep.h). Too large for the BPF stack. Per CPU, as the
 * program runs with migration disabled; a program nesting on this CPU in between (an fexit from an
 * interrupt) overwrites it, as it would have overwritten the hardware's records.
 */
struct lbr_scratch {
	struct rs_lbr_entry entries[RS_MAX_LBR];
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct lbr_scratch);
} lbr_scratch SEC(".maps");

/*
 * kstack_at_entry: the stack segments taken at the entries of a session's calls
 * (entry_kstack.h), by sessions slot. Resized to the sessions map's size where used.
 */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct rs_entry_kstack);
} entry_kstacks SEC(".maps");

/* One exit's snapshot: bytes is bpf_get_branch_snapshot()'s answer, 0 when none was taken. */
struct lbr_snap {
	struct lbr_scratch *scratch;
	long bytes;
};

/*
 * -T records may fill at most 3/4 of the ring buffer. The rest stays free for the parts and
 * headers that complete sessions: a flood of calls then loses call records, which its session
 * reports, rather than whole sessions.
 */
static __always_inline bool call_rec_fits(void)
{
	__u64 limit = bpf_ringbuf_query(&rb, BPF_RB_RING_SIZE) / 4 * 3;

	return bpf_ringbuf_query(&rb, BPF_RB_AVAIL_DATA) + sizeof(struct rs_call_rec) <= limit;
}

/* Sends one -T record of the session; seq numbers every record sent or lost. */
static __always_inline void emit_trace_rec(struct session *s, void *rec, __u64 size)
{
	if (!call_rec_fits() || bpf_ringbuf_output(&rb, rec, size, BPF_RB_NO_WAKEUP))
		s->trace_lost++;
	else
		s->trace_cnt++;
}

/* time_ns: start time of an entry, duration of an exit (see struct rs_call_rec). */
static __always_inline void emit_call_rec(struct session *s, __u32 id, __u32 depth, bool entry,
					  __u64 time_ns, __s64 res)
{
	struct rs_call_rec r = {
		.type = RS_REC_CALL,
		.depth = depth,
		.is_entry = entry,
		.session_id = s->id,
		.func_id = id,
		.seq = s->trace_cnt + s->trace_lost,
		.time_ns = time_ns,
	};

	if (entry)
		r.call_seq = s->chain.next_seq - 1; /* ties its -A record to it */
	else
		r.res = res;

	emit_trace_rec(s, &r, sizeof(r));
}

/*
 * The first thing every exit program does in LBR mode: each branch taken before the snapshot
 * (helper calls, returns, map lookups) replaces one of the kernel's records in the hardware. The
 * scratch lookup costs none once inlined (PERCPU_ARRAY, 6.10+); docs/usage.md counts what is left.
 */
static __always_inline void lbr_snapshot(struct lbr_snap *snap)
{
	__u32 zero = 0;

	snap->scratch = NULL;
	snap->bytes = 0;
	if (!capture_lbr)
		return;
	snap->scratch = bpf_map_lookup_elem(&lbr_scratch, &zero);
	if (snap->scratch)
		snap->bytes = bpf_get_branch_snapshot(snap->scratch, sizeof(*snap->scratch), 0);
}

/*
 * bpf_get_stack() clears what the stack left of the buffer, most of RS_MAX_KSTACK frames for a
 * usual stack: asking for one frame more than the deepest stack captured so far leaves next to
 * nothing to clear. A stack that fills what was asked for may have been cut short: it is
 * captured again in full, and later captures ask for one frame more than it had. skip: frames
 * of the innermost end left out.
 */
static __always_inline long read_kstack(void *ctx, __u64 *ips, __u64 skip)
{
	__u32 want = kstack_want;
	long n;

	if (want > RS_MAX_KSTACK)
		want = RS_MAX_KSTACK;
	if (want < 1)
		want = 1;
	n = bpf_get_stack(ctx, ips, want * sizeof(ips[0]), skip);
	if (n < (long)(want * sizeof(ips[0])) || want == RS_MAX_KSTACK)
		return n;
	n = bpf_get_stack(ctx, ips, RS_MAX_KSTACK * sizeof(ips[0]), skip);
	if (n > 0)
		kstack_want = n / sizeof(ips[0]) + 1;
	return n;
}

/* The kernel stack of the return being captured, as the session reports it. */
static __always_inline void record_kstack(void *ctx, struct session *s)
{
	long n = read_kstack(ctx, s->kstack, 0);

	s->kstack_err = n < 0;
	s->rec.kstack_cnt = n > 0 ? n / sizeof(s->kstack[0]) : 0;
}

/*
 * kstack_at_entry: the stack segment of a kept call at chain level depth, taken at its entry
 * (entry_kstack.h). The probed function's own frame is left out: the chain shows it, as it shows
 * a returning call whose stack is taken at the return. A user-space function's entry (user) runs
 * on user registers: its segment is empty and whole, and a kernel call under it, entered from
 * user space, takes the system call's whole stack.
 */
static __always_inline void take_entry_kstack(void *ctx, struct session *s, __u32 depth, bool user)
{
	struct rs_entry_kstack *k = bpf_map_lookup_elem(&entry_kstacks, &s->slot);
	long n = -1;
	__s32 start;

	if (!k)
		return;
	start = rs_entry_kstack_start(k, depth);
	if (start >= 0 && start < RS_MAX_KSTACK)
		n = user ? 0 : read_kstack(ctx, &k->ips[start], 1);
	rs_entry_kstack_taken(k, depth, start, n, kretprobe_trampoline_addr);
}

static __always_inline long kstack_copy(void *dst, __u32 size, const void *src)
{
	return bpf_probe_read_kernel(dst, size, src);
}

/* kstack_at_entry: the stack of the call at depth, which is returning, from its entry's. */
static __always_inline void report_entry_kstack(struct session *s, __u32 depth)
{
	struct rs_entry_kstack *k = bpf_map_lookup_elem(&entry_kstacks, &s->slot);
	__s32 n = k ? rs_entry_kstack_gather(k, depth, s->kstack, kstack_copy) : -1;

	s->kstack_err = n < 0;
	s->rec.kstack_cnt = n > 0 ? n : 0;
}

static __always_inline void capture_stacks(void *ctx, struct session *s, int steps,
					   const struct lbr_snap *lbr)
{
	long n;

	if (capture_lbr) {
		s->rec.lbr_cnt = rs_lbr_keep_cnt(steps, lbr->bytes);
		if (s->rec.lbr_cnt && lbr->scratch)
			__builtin_memcpy(s->lbr, lbr->scratch->entries, sizeof(s->lbr));
	}
	if (kstack_at_entry)
		report_entry_kstack(s, s->chain.depth);
	else
		record_kstack(ctx, s);
	if (!capture_ustack)
		return;
	n = bpf_get_stack(ctx, s->ustack, sizeof(s->ustack), BPF_F_USER_STACK);
	s->ustack_err = n < 0;
	s->rec.ustack_cnt = n > 0 ? n / sizeof(s->ustack[0]) : 0;
}

#endif /* RETSNOOP_BPF_CAPTURE_BPF_H */
