/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * User-space functions through uprobe-multi links (6.6+): a part of tracer.bpf.c, included last.
 * The attach cookie is the function id, as for kernel functions, and the handlers are the same:
 * a user function's entry opens a session on its thread like a kernel entry function's does,
 * and the kernel calls it makes land in that session. Single uprobes need no program of their
 * own: they are kprobe programs, and rs_kentry/rs_kexit serve them, or without cookies the
 * templates rs_umark_entry/rs_umark_exit of tracer.bpf.c. BPF only.
 */
#ifndef RETSNOOP_BPF_UPROBES_BPF_H
#define RETSNOOP_BPF_UPROBES_BPF_H

#include "vmlinux_min.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "handlers.bpf.h"

SEC("uprobe.multi")
int rs_umentry(struct pt_regs *ctx)
{
	on_func_entry(ctx, bpf_get_attach_cookie(ctx), false);
	return 0;
}

SEC("uretprobe.multi")
int rs_umexit(struct pt_regs *ctx)
{
	struct lbr_snap lbr;

	lbr_snapshot(&lbr);
	return on_func_exit(ctx, bpf_get_attach_cookie(ctx), EXIT_BY_ID, PT_REGS_RC(ctx), &lbr);
}

#endif /* RETSNOOP_BPF_UPROBES_BPF_H */
