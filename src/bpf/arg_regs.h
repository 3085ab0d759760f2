/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * -A: the argument register slots of a kprobe's register frame, in the calling convention's
 * order (x86-64: rdi, rsi, rdx, rcx, r8, r9; arm64: x0..x7). Each slot is read at a constant
 * offset: the verifier refuses context reads at a variable one.
 */
#ifndef RETSNOOP_BPF_ARG_REGS_H
#define RETSNOOP_BPF_ARG_REGS_H

#include "vmlinux_min.h"
#include "abi.h"

#if defined(__TARGET_ARCH_x86)
static __always_inline void rs_read_reg_slots(const struct pt_regs *regs, __u64 *slots)
{
	slots[0] = regs->di;
	slots[1] = regs->si;
	slots[2] = regs->dx;
	slots[3] = regs->cx;
	slots[4] = regs->r8;
	slots[5] = regs->r9;
}
#elif defined(__TARGET_ARCH_arm64)
static __always_inline void rs_read_reg_slots(const struct pt_regs *regs, __u64 *slots)
{
	int i;

#pragma clang loop unroll(full)
	for (i = 0; i < 8; i++)
		slots[i] = regs->user_regs.regs[i];
}
#endif

#endif /* RETSNOOP_BPF_ARG_REGS_H */
