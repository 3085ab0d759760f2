/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The few kernel types our BPF programs touch. UAPI definitions come from the build host's
 * <linux/bpf.h> (a stable ABI); kernel-internal structs are declared here with only the fields
 * we read and preserve_access_index, so CO-RE relocates them against the running kernel's BTF
 * and the objects never depend on the build machine's kernel.
 */
#ifndef RETSNOOP_VMLINUX_MIN_H
#define RETSNOOP_VMLINUX_MIN_H

#include <linux/types.h>
#include <linux/bpf.h>
#include <linux/perf_event.h>
#include <stdbool.h>

#pragma clang attribute push(__attribute__((preserve_access_index)), apply_to = record)

/* x86-64 register frame as the kprobe handlers receive it. */
struct pt_regs {
	unsigned long r15, r14, r13, r12, bp, bx, r11, r10, r9, r8;
	unsigned long ax, cx, dx, si, di, orig_ax, ip, cs, flags, sp, ss;
};

struct task_struct {
	int pid;
	int tgid;
	char comm[16];
	struct task_struct *group_leader;
};

#pragma clang attribute pop

#endif /* RETSNOOP_VMLINUX_MIN_H */
