/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fentry/fexit without link cookies (before Linux 5.19) and without bpf_get_func_ret() (5.17):
 * each function's trampoline programs are copies of one template in which user space replaces
 * the 64-bit immediate RS_FUNC_MARK by the function id (low 32 bits) and the function's argument
 * count (the 8 bits above), which says where fexit's context holds the return value. Single
 * uprobes without BPF cookies (before 5.15) carry their function id the same way, with no
 * argument count. Plain C, shared with user space and the unit tests.
 */
#ifndef RETSNOOP_BPF_FUNC_MARK_H
#define RETSNOOP_BPF_FUNC_MARK_H

#include "abi.h"

#define RS_FUNC_MARK 0x525346454e545259ULL /* "RSFENTRY" */

RS_INLINE rs_u64 rs_func_mark_value(rs_u32 id, rs_u32 nargs)
{
	return (rs_u64)id | (rs_u64)(nargs & 0xff) << 32;
}

RS_INLINE rs_u32 rs_func_mark_id(rs_u64 value)
{
	return (rs_u32)value;
}

/* Bounded for the verifier, which sees the unpatched template's mark as a constant too. */
RS_INLINE rs_u32 rs_func_mark_nargs(rs_u64 value)
{
	return (rs_u32)(value >> 32) & 0xff;
}

#endif /* RETSNOOP_BPF_FUNC_MARK_H */
