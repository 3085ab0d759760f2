// SPDX-License-Identifier: BSD-2-Clause
/*
 * --callees: the targets of indirect calls and jumps, seen at run time. One kprobe per call site
 * of the walked functions, its BPF cookie (or before 5.15 its program copy's mark) telling which
 * site and where the instruction reads its target (RS_INDIRECT_* in abi.h). A separate object
 * from tracer.bpf.c that shares its sessions and session_bits maps: a target counts only while
 * the thread has an open session, so that what is seen is what the traced calls reach.
 */
#include "vmlinux_min.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "abi.h"
#include "open_session.bpf.h"
#include "load_mark.bpf.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/* Targets that found indirect_seen full. */
__u64 indirect_dropped = 0;

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, RS_INDIRECT_MAX_SEEN);
	__type(key, struct rs_indirect_key);
	__type(value, __u64);
} indirect_seen SEC(".maps");

#if defined(__TARGET_ARCH_x86)
#define RS_REG_SLOTS 15 /* r15 to di: the general registers of struct pt_regs */
#else
#define RS_REG_SLOTS 31 /* x0 to x30 */
#endif

/*
 * The register at slot of struct pt_regs. Read from a copy on the stack: the verifier refuses a
 * context pointer moved by a variable, and clang folds a loop of constant reads into one.
 */
static __always_inline __u64 reg_at(struct pt_regs *ctx, __u32 slot)
{
	__u64 regs[RS_REG_SLOTS] = {};

	if (slot >= RS_REG_SLOTS)
		return 0;
	bpf_probe_read_kernel(regs, sizeof(regs), ctx);
	return regs[slot];
}

/* Counts where the site that the operand describes (RS_INDIRECT_* in abi.h) goes this time. */
static __always_inline int count_target(struct pt_regs *ctx, __u64 operand)
{
	struct rs_indirect_key key = {};
	__u64 target, one = 1, *cnt;

	if (!open_session())
		return 0;
	target = reg_at(ctx, RS_INDIRECT_REG(operand));
	if (RS_INDIRECT_MEM(operand)) {
		void *ptr = (void *)(target + (__s64)RS_INDIRECT_DISP(operand));

		target = 0;
		bpf_probe_read_kernel(&target, sizeof(target), ptr);
	}
	key.site = RS_INDIRECT_SITE(operand);
	key.target = target;
	cnt = bpf_map_lookup_elem(&indirect_seen, &key);
	if (cnt) {
		__sync_fetch_and_add(cnt, 1);
		return 0;
	}
	if (bpf_map_update_elem(&indirect_seen, &key, &one, BPF_NOEXIST) == -7 /* E2BIG */)
		__sync_fetch_and_add(&indirect_dropped, 1);
	return 0;
}

/* One program for every site, each probe's cookie telling its site (5.15+). */
SEC("kprobe")
int indirect_site(struct pt_regs *ctx)
{
	return count_target(ctx, bpf_get_attach_cookie(ctx));
}

/*
 * Without cookies: a template attached nowhere, of which user space loads one copy per site
 * with the cookie's value in place of RS_INDIRECT_MARK.
 */
SEC("kprobe")
int indirect_site_by_mark(struct pt_regs *ctx)
{
	return count_target(ctx, load_mark(RS_INDIRECT_MARK));
}
