/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * LBR mode: which branch snapshot a session keeps. Every exit takes one first thing (capture.bpf.h:
 * the branches of the program itself would push the kernel's records out of the 32 the hardware
 * holds), but only the exit that ends the chain of interest may keep it. Plain C shared with the
 * unit tests, like chain.h.
 */
#ifndef RETSNOOP_BPF_LBR_KEEP_H
#define RETSNOOP_BPF_LBR_KEEP_H

#include "chain.h"

/*
 * Records to keep from a snapshot of snapshot_bytes (bpf_get_branch_snapshot()'s answer: bytes
 * written, or a negative error) taken at an exit whose rs_chain_exit() returned steps: all of them,
 * up to RS_MAX_LBR, when that exit became the chain's deepest failure (RS_STEP_CAPTURE; with -S,
 * the deepest call), else none.
 */
RS_INLINE rs_u32 rs_lbr_keep_cnt(int steps, rs_s64 snapshot_bytes)
{
	rs_u64 cnt;

	if (!(steps & RS_STEP_CAPTURE) || snapshot_bytes <= 0)
		return 0;
	cnt = (rs_u64)snapshot_bytes / sizeof(struct rs_lbr_entry);
	return cnt < RS_MAX_LBR ? cnt : RS_MAX_LBR;
}

#endif /* RETSNOOP_BPF_LBR_KEEP_H */
