// SPDX-License-Identifier: BSD-2-Clause
/*
 * kretprobe IP offset calibration. Before bpf_get_func_ip() (5.15), a kretprobe program learns
 * which function returned only from the probe its caller is running: a struct trace_kprobe
 * pointer saved in the kernel stack above the program's frame, at a slot that depends on the
 * kernel build. One kprobe/kretprobe pair on a syscall the calibrating thread makes finds it.
 */
#include "vmlinux_min.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

char LICENSE[] SEC("license") = "Dual BSD/GPL";

#define MAX_SLOTS 64

const volatile __u32 calib_tid = 0;
__u64 probe_addr = 0; /* where the kprobe sits, as its entry handler saw it */
int ip_slot = 0;      /* the answer: 8-byte slots above the frame pointer, 0: none */

static __always_inline bool is_calibrating_thread(void)
{
	return (__u32)bpf_get_current_pid_tgid() == calib_tid;
}

SEC("kprobe")
int rs_calib_entry(struct pt_regs *ctx)
{
	/* x86 reports the IP after the breakpoint byte, ftrace-based probes imitate it. */
	if (is_calibrating_thread())
		probe_addr = ctx->ip - 1;
	return 0;
}

SEC("kretprobe")
int rs_calib_exit(struct pt_regs *ctx)
{
	struct trace_kprobe *tk;
	__u64 fp, i;

	if (!is_calibrating_thread() || !probe_addr)
		return 0;
	asm volatile("%[fp] = r10" : [fp] "=r"(fp));
	for (i = 1; i <= MAX_SLOTS; i++) {
		if (bpf_probe_read_kernel(&tk, sizeof(tk), (void *)(fp + i * sizeof(__u64))))
			continue;
		if ((__u64)BPF_CORE_READ(tk, rp.kp.addr) == probe_addr) {
			ip_slot = i;
			break;
		}
	}
	return 0;
}
