/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Kernel stacks taken at traced entries, for kernels whose kretprobe stacks stop at the
 * trampoline (kstack_at_entry): the stack of a failing call is then put together from stacks
 * taken at the entries of the calls running above it. Plain C shared with the unit tests, like
 * chain.h.
 *
 * The kretprobe of each running traced call has replaced its return address with the kretprobe
 * trampoline, where those kernels' unwinder stops: a stack taken at the entry of the call at
 * level d holds the frames from its caller up to the trampoline of level d - 1, and the stack
 * taken at level d - 1's entry continues it. Each entry therefore takes only its own segment,
 * after the segments of the levels above it, and a level's stack is its segment followed by its
 * parent's stack. A segment that does not end at the trampoline is a whole stack (the parent's
 * return probe was missed, or it is level 0's).
 */
#ifndef RETSNOOP_BPF_ENTRY_KSTACK_H
#define RETSNOOP_BPF_ENTRY_KSTACK_H

#include "abi.h"

/*
 * Hides from the compiler what it knows of v, so that it keeps the bound checks that follow: it
 * drops those the caller's own checks imply, which the verifier of 5.10 has lost by then (a
 * 32-bit value spilled to the stack loses its bounds).
 */
#ifdef __bpf__
#define RS_OPAQUE(v) asm volatile("" : "+r"(v))
#else
#define RS_OPAQUE(v) ((void)0)
#endif

/* seg_cnt of a level whose segment could not be taken: above every count (RS_MAX_KSTACK). */
#define RS_KSTACK_UNKNOWN 0xff

struct rs_entry_kstack {
	/*
	 * The running levels' segments, level 0 first, each innermost frame first. A segment starts
	 * before RS_MAX_KSTACK and may take RS_MAX_KSTACK frames, hence twice the room.
	 */
	rs_u64 ips[2 * RS_MAX_KSTACK];
	rs_u8 seg_start[RS_MAX_DEPTH];
	rs_u8 seg_cnt[RS_MAX_DEPTH];
	rs_u8 seg_continues[RS_MAX_DEPTH]; /* ended at the trampoline: the parent's stack follows */
};

/* Where the segment of an entry at level depth starts in ips, or -1 when it has no room. */
RS_INLINE rs_s32 rs_entry_kstack_start(const struct rs_entry_kstack *k, rs_u32 depth)
{
	rs_u32 parent, start;

	RS_OPAQUE(depth);
	if (depth == 0)
		return 0;
	parent = depth - 1;
	if (parent >= RS_MAX_DEPTH || k->seg_cnt[parent] == RS_KSTACK_UNKNOWN)
		return -1;
	start = (rs_u32)k->seg_start[parent] + k->seg_cnt[parent];
	return start < RS_MAX_KSTACK ? (rs_s32)start : -1;
}

/*
 * Notes the segment of level depth: start as rs_entry_kstack_start() said (-1: not taken),
 * bytes as bpf_get_stack() answered, trampoline the kretprobe trampoline's address (0: unknown,
 * every segment is then a whole stack).
 */
RS_INLINE void rs_entry_kstack_taken(struct rs_entry_kstack *k, rs_u32 depth, rs_s32 start,
				     rs_s64 bytes, rs_u64 trampoline)
{
	rs_u64 n = bytes > 0 ? (rs_u64)bytes / sizeof(k->ips[0]) : 0;
	rs_u32 last;

	RS_OPAQUE(depth);
	if (depth >= RS_MAX_DEPTH)
		return;
	if (start < 0 || start >= RS_MAX_KSTACK || bytes < 0) {
		k->seg_cnt[depth] = RS_KSTACK_UNKNOWN;
		return;
	}
	if (n > RS_MAX_KSTACK)
		n = RS_MAX_KSTACK;
	k->seg_continues[depth] = 0;
	last = start + n - 1;
	/* Level 0's trampoline is its own return probe's, where nothing continues it. */
	if (n > 0 && trampoline && last < 2 * RS_MAX_KSTACK && k->ips[last] == trampoline) {
		k->seg_continues[depth] = depth > 0;
		n--;
	}
	k->seg_start[depth] = start;
	k->seg_cnt[depth] = n;
}

/* Copies size bytes from src to dst; 0 or a negative error (bpf_probe_read_kernel() in BPF). */
typedef long (*rs_kstack_copy_fn)(void *dst, rs_u32 size, const void *src);

/*
 * The stack of the call at level depth, which is running or has just returned, innermost frame
 * first, into out (RS_MAX_KSTACK frames: a longer one loses its outermost frames, as a stack
 * taken at once would). Returns its frames, or -1 when a segment it needs could not be taken.
 */
RS_INLINE rs_s32 rs_entry_kstack_gather(const struct rs_entry_kstack *k, rs_u32 depth, rs_u64 *out,
					rs_kstack_copy_fn copy)
{
	rs_u32 n = 0, lvl = depth, cnt, start;

	for (int i = 0; i < RS_MAX_DEPTH; i++) {
		RS_OPAQUE(lvl);
		if (lvl >= RS_MAX_DEPTH)
			return -1;
		cnt = k->seg_cnt[lvl];
		start = k->seg_start[lvl];
		if (cnt == RS_KSTACK_UNKNOWN || start >= RS_MAX_KSTACK)
			return -1;
		if (cnt > RS_MAX_KSTACK - n)
			cnt = RS_MAX_KSTACK - n;
		RS_OPAQUE(cnt);
		if (cnt > RS_MAX_KSTACK) /* never; a bound the verifier sees */
			return -1;
		if (cnt && copy(out + n, cnt * sizeof(out[0]), &k->ips[start]))
			return -1;
		n += cnt;
		if (!k->seg_continues[lvl] || lvl == 0 || n >= RS_MAX_KSTACK)
			break;
		lvl--;
	}
	return n;
}

#endif /* RETSNOOP_BPF_ENTRY_KSTACK_H */
