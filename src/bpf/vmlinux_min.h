/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The few kernel types our BPF programs touch. UAPI definitions come from the build host's
 * <linux/bpf.h> (a stable ABI); kernel-internal structs are declared here with only the fields
 * we read and preserve_access_index, so CO-RE relocates them against the running kernel's BTF
 * and the objects never depend on the build machine's kernel.
 */
#ifndef RETSNOOP_VMLINUX_MIN_H
#define RETSNOOP_VMLINUX_MIN_H
/* Tells libbpf's bpf_tracing.h that struct pt_regs has the kernel's field names (x86: ax, not rax). */
#define __VMLINUX_H__

#include <linux/types.h>
#include <linux/bpf.h>
#include <linux/perf_event.h>
#include <stdbool.h>

#pragma clang attribute push(__attribute__((preserve_access_index)), apply_to = record)

/*
 * The register frame kprobe handlers receive, per target architecture. Programs read it only
 * through libbpf's PT_REGS_*() macros, which know each architecture's register names.
 */
#if defined(__TARGET_ARCH_x86)
struct pt_regs {
	unsigned long r15, r14, r13, r12, bp, bx, r11, r10, r9, r8;
	unsigned long ax, cx, dx, si, di, orig_ax, ip, cs, flags, sp, ss;
};
#elif defined(__TARGET_ARCH_arm64)
/* The UAPI frame, which the kernel's struct pt_regs starts with; PT_REGS_*() read it. */
struct user_pt_regs {
	__u64 regs[31];
	__u64 sp;
	__u64 pc;
	__u64 pstate;
};
struct pt_regs {
	struct user_pt_regs user_regs;
};
#else
#error "retsnoop's BPF programs support x86 and arm64 (__TARGET_ARCH_x86 or __TARGET_ARCH_arm64)"
#endif

struct linux_binprm;

struct kprobe {
	void *addr;
	void *pre_handler;
};

struct task_struct {
	int pid;
	int tgid;
	char comm[16];
	struct task_struct *group_leader;
	__u64 start_time;
};

#pragma clang attribute pop

#endif /* RETSNOOP_VMLINUX_MIN_H */
