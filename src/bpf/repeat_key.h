/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * -C stacks.repeats=count: what makes two failing sessions the same failure in BPF, where
 * symbol names are out of reach: the function ids and results of the reported chain (the
 * stitched levels included) and the kernel stack's addresses. Two sessions with equal keys print
 * the same stack, so the fingerprint user space computes for the first (format/stack_fingerprint.h)
 * is the fingerprint of all of them. Plain C, shared with the unit tests like chain.h.
 */
#ifndef RETSNOOP_BPF_REPEAT_KEY_H
#define RETSNOOP_BPF_REPEAT_KEY_H

#include "abi.h"
#include "chain.h"

#define RS_REPEAT_HASH_SEED 0xcbf29ce484222325ULL
#define RS_REPEAT_HASH_PRIME 0x100000001b3ULL

/*
 * FNV-1a, a 64-bit word at a time: each step is a bijection of h for a given word, so keys that
 * differ in one word always differ. The key is compared whole, never cut to its low bits (the
 * map hashes it again for its buckets), so the words' high bits need not be folded down.
 */
RS_INLINE rs_u64 rs_repeat_mix(rs_u64 h, rs_u64 v)
{
	return (h ^ v) * RS_REPEAT_HASH_PRIME;
}

/* frames[from..to): which calls, and what they returned; times and call numbers stay out. */
RS_INLINE rs_u64 rs_repeat_frames(rs_u64 h, const struct rs_frame *frames, rs_u32 from, rs_u32 to)
{
	for (rs_u32 i = 0; i < RS_MAX_DEPTH; i++) {
		if (i < from)
			continue;
		if (i >= to)
			break;
		h = rs_repeat_mix(h, frames[i].func_id);
		h = rs_repeat_mix(h, (rs_u64)frames[i].res);
	}
	/* The count ends the list: chains a|b and ab| differ. */
	return rs_repeat_mix(h, to > from ? to - from : 0);
}

/* The key of a finished session's report: its chain of interest, as session_report() sends it. */
RS_INLINE rs_u64 rs_repeat_key(const struct rs_chain *c, const rs_u64 *kstack, rs_u32 kstack_cnt)
{
	rs_u64 h = RS_REPEAT_HASH_SEED;

	h = rs_repeat_frames(h, c->frames, 0, c->max_depth);
	/* Stitched levels continue the chain below its last level (chain.h). */
	h = rs_repeat_frames(h, c->saved, c->max_depth, rs_chain_stitched_depth(c));
	h = rs_repeat_mix(h, c->is_err);
	for (rs_u32 i = 0; i < RS_MAX_KSTACK; i++) {
		if (i >= kstack_cnt)
			break;
		h = rs_repeat_mix(h, kstack[i]);
	}
	return rs_repeat_mix(h, kstack_cnt);
}

#endif /* RETSNOOP_BPF_REPEAT_KEY_H */
