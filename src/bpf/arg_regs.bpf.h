/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * -A: the argument register slots of a kprobe's register frame, in the calling convention's
 * order (x86-64: rdi, rsi, rdx, rcx, r8, r9; arm64: x0..x7), where the arguments passed on
 * the stack start, and a system call's arguments in the user registers saved at its entry. Each slot is read at a constant offset: the verifier refuses context reads at
 * a variable one.
 */
#ifndef RETSNOOP_BPF_ARG_REGS_H
#define RETSNOOP_BPF_ARG_REGS_H

#include "vmlinux_min.h"
#include <bpf/bpf_helpers.h>
#include "abi.h"

#if defined(__TARGET_ARCH_x86)
#define RS_ARG_REG_SLOTS 6

/* At entry the stack pointer is at the return address; the stack arguments follow it. */
static __always_inline __u64 rs_stack_args(const struct pt_regs *regs)
{
	return regs->sp + 8;
}

static __always_inline void rs_read_reg_slots(const struct pt_regs *regs, __u64 *slots)
{
	slots[0] = regs->di;
	slots[1] = regs->si;
	slots[2] = regs->dx;
	slots[3] = regs->cx;
	slots[4] = regs->r8;
	slots[5] = regs->r9;
}
/*
 * A system call's arguments, in the user registers the kernel saved at entry (regs, kernel
 * memory): rdi, rsi, rdx, r10, r8, r9, into slots[0..5]. The frame holds r10 up to di in one run
 * of 8 words, read at once into the upper half of slots, then put in order.
 */
static __always_inline void rs_read_syscall_slots(const struct pt_regs *regs, __u64 *slots)
{
	__u64 *run = slots + RS_MAX_ARG_SLOTS - 8; /* r10, r9, r8, ax, cx, dx, si, di */

	if (bpf_probe_read_kernel(run, 8 * sizeof(__u64), &regs->r10))
		__builtin_memset(run, 0, 8 * sizeof(__u64));
	slots[0] = run[7];
	slots[1] = run[6];
	slots[2] = run[5];
	slots[3] = run[0];
	slots[4] = run[2];
	slots[5] = run[1];
}
#elif defined(__TARGET_ARCH_arm64)
#define RS_ARG_REG_SLOTS 8

/* The return address is in the link register: the stack arguments start at the stack pointer. */
static __always_inline __u64 rs_stack_args(const struct pt_regs *regs)
{
	return regs->user_regs.sp;
}

static __always_inline void rs_read_reg_slots(const struct pt_regs *regs, __u64 *slots)
{
	int i;

#pragma clang loop unroll(full)
	for (i = 0; i < 8; i++)
		slots[i] = regs->user_regs.regs[i];
}

/* A system call's arguments, in the user registers the kernel saved at entry: x0..x5. */
static __always_inline void rs_read_syscall_slots(const struct pt_regs *regs, __u64 *slots)
{
	if (bpf_probe_read_kernel(slots, 6 * sizeof(__u64), &regs->user_regs.regs[0]))
		__builtin_memset(slots, 0, 6 * sizeof(__u64));
}
#endif

/*
 * The first cnt stack words after the registers, into slots[RS_ARG_REG_SLOTS..]. A fault (a
 * frame at the very top of a stack) leaves them 0.
 */
static __always_inline void rs_read_stack_slots(const struct pt_regs *regs, __u64 *slots, __u32 cnt)
{
	__u32 max = RS_MAX_ARG_SLOTS - RS_ARG_REG_SLOTS;

	cnt = cnt < max ? cnt : max;
	if (cnt)
		bpf_probe_read_kernel(slots + RS_ARG_REG_SLOTS, cnt * sizeof(__u64),
				      (void *)rs_stack_args(regs));
}

#endif /* RETSNOOP_BPF_ARG_REGS_H */
