/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The call chain of one session and every decision taken on a traced entry or exit. Plain C
 * with no BPF helpers, so tracer.bpf.c and the unit tests run the very same code: tests drive
 * it with synthetic call sequences instead of a kernel.
 *
 * frames[0..depth) are the calls running now; frames[0..max_depth) is the chain of interest:
 * the running calls plus the finished calls below them that are reported if the session ends
 * now. In error mode that is the deepest failing chain: the first failing return on the way up
 * fixes it, a later successful return clears the error (the caller handled it), and a new call
 * overwrites it (saved first, for stitching).
 */
#ifndef RETSNOOP_BPF_CHAIN_H
#define RETSNOOP_BPF_CHAIN_H

#include "abi.h"

/* A new session's chain is all zeroes. */
struct rs_chain {
	rs_u32 depth;     /* calls running now; may exceed RS_MAX_DEPTH, deeper ones aren't kept */
	rs_u32 max_depth; /* frames[0..max_depth): the chain of interest */
	rs_u32 next_seq;  /* sequence number of the next call */
	rs_u32 saved_depth; /* saved[0..saved_depth): an earlier failing chain; 0: none */
	rs_u32 saved_from; /* saved[saved_from..saved_depth) had finished (and failed) when saved */
	rs_u8 is_err;      /* the chain of interest ends in a failure nobody has handled */
	rs_u8 pad[3];
	/* Each array is preceded by room for its part header: header and array go out in one write. */
	struct rs_part_hdr frames_hdr;
	struct rs_frame frames[RS_MAX_DEPTH];
	struct rs_part_hdr saved_hdr;
	struct rs_frame saved[RS_MAX_DEPTH];
};

/* What the caller of rs_chain_exit() has to do, as bit flags. */
enum rs_step {
	RS_STEP_CAPTURE =
		1 << 0,          /* the chain of interest now ends here: capture the kernel stack */
	RS_STEP_CLOSE = 1 << 1,  /* the entry call returned: the session is over */
	RS_STEP_BROKEN = 1 << 2, /* the exit matches no recorded entry (a missed probe) */
};

/*
 * The saved chain continues the chain of interest exactly one level below: it was saved while
 * the deepest call of the chain of interest was running, and its levels below that call had all
 * finished. Deeper levels of a chain saved further up the stack were still running then, so
 * their durations and results were never known: such a chain is not stitched.
 */
RS_INLINE bool rs_chain_saved_hangs_below(const struct rs_chain *c)
{
	rs_u32 last = c->max_depth - 1;

	if (!c->saved_depth || c->saved_from != c->max_depth || last >= RS_MAX_DEPTH)
		return false;
	return c->saved[last].seq == c->frames[last].seq;
}

/* Saved frames to report with the chain of interest: 0 unless the saved chain is stitched. */
RS_INLINE rs_u32 rs_chain_stitched_depth(const struct rs_chain *c)
{
	return rs_chain_saved_hangs_below(c) ? c->saved_depth : 0;
}

/*
 * The failing chain is about to be overwritten by a new call: keep it. A chain saved earlier
 * that hangs right below it stays as its tail, so stitched sub-chains nest.
 */
RS_INLINE void rs_chain_save(struct rs_chain *c)
{
	rs_u32 i, n = c->max_depth;

	if (!rs_chain_saved_hangs_below(c))
		c->saved_depth = n;
	for (i = 0; i < RS_MAX_DEPTH && i < n; i++)
		c->saved[i] = c->frames[i];
	c->saved_from = c->depth;
}

/* True when a call entering now would replace a failing chain that nobody handled (for -I). */
RS_INLINE bool rs_chain_entry_replaces_failure(const struct rs_chain *c)
{
	return c->is_err && c->depth < RS_MAX_DEPTH;
}

/* True when a return now would clear a failure: the caller handled it (for -I). */
RS_INLINE bool rs_chain_exit_handles_failure(const struct rs_chain *c, bool failed)
{
	return c->is_err && !failed;
}

/* A traced function was called. False when it is deeper than RS_MAX_DEPTH and not kept. */
RS_INLINE bool rs_chain_enter(struct rs_chain *c, rs_u32 func_id, rs_u64 now)
{
	rs_u32 d;

	if (c->depth >= RS_MAX_DEPTH) {
		c->depth++;
		return false;
	}
	if (c->is_err) {
		rs_chain_save(c);
		c->is_err = 0;
	}
	d = c->depth++;
	c->max_depth = d + 1;
	c->frames[d].func_id = func_id;
	c->frames[d].seq = c->next_seq++;
	c->frames[d].start_ns = now;
	c->frames[d].dur_ns = 0;
	c->frames[d].res = 0;
	return true;
}

/*
 * A traced function returned res, which failed says is a failure for its return type. With
 * success_stacks (-S), a chain without failure is captured when its deepest call returns.
 * Returns RS_STEP_* flags.
 */
RS_INLINE int rs_chain_exit(struct rs_chain *c, rs_u32 func_id, rs_s64 res, bool failed,
			    bool success_stacks, rs_u64 now)
{
	rs_u32 d;
	int steps;

	if (c->depth == 0)
		return RS_STEP_BROKEN;
	d = --c->depth;
	steps = d == 0 ? RS_STEP_CLOSE : 0;
	if (d >= RS_MAX_DEPTH)
		return steps;
	if (c->frames[d].func_id != func_id)
		return RS_STEP_BROKEN;
	c->frames[d].dur_ns = now - c->frames[d].start_ns;
	c->frames[d].res = res;
	if (failed && !c->is_err) {
		c->is_err = 1;
		c->max_depth = d + 1;
		steps |= RS_STEP_CAPTURE;
	} else if (!failed && c->is_err) {
		c->is_err = 0;
	} else if (!failed && success_stacks && d + 1 == c->max_depth) {
		steps |= RS_STEP_CAPTURE;
	}
	return steps;
}

#endif /* RETSNOOP_BPF_CHAIN_H */
