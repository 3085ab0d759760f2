// SPDX-License-Identifier: BSD-2-Clause
/*
 * The kernel's own messages, recorded while a session is open on the emitting thread: fs_context
 * errors (logfc), netlink extended acks and BPF verifier log lines. A separate object from
 * tracer.bpf.c: user space loads it only with messages enabled, loads each program only where
 * its function exists, and hands it the tracer's sessions, session_bits and rb maps. Its
 * programs run only where a message is produced, and return at once outside a session.
 */
#include "vmlinux_min.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "abi.h"
#include "open_session.bpf.h" /* struct session and the maps shared with the tracer */

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/* Set by user space before load. */
const volatile __u32 kmsg_max_count = 16; /* -C messages.max-count */

/* Messages past kmsg_max_count, or that did not fit in the ring buffer. */
__u64 kmsg_dropped = 0;

struct kmsg_count {
	__u64 session_id;
	__u32 cnt;
	__u32 pad;
};

/* Messages sent per session, by session slot: the session id tells a new session from the old. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1); /* sized by user space as the sessions map */
	__type(key, __u32);
	__type(value, struct kmsg_count);
} kmsg_counts SEC(".maps");

/* The verifier's line buffer: only its kbuf is read. */
struct bpf_verifier_log {
	char kbuf[1024];
} __attribute__((preserve_access_index));

/*
 * The session's count of messages, or NULL once it holds kmsg_max_count: the caller counts a
 * message when it is complete.
 */
static __always_inline struct kmsg_count *kmsg_admit(struct session *s)
{
	__u32 slot = s->slot;
	struct kmsg_count *c = bpf_map_lookup_elem(&kmsg_counts, &slot);

	if (!c)
		return NULL;
	if (c->session_id != s->id) {
		c->session_id = s->id;
		c->cnt = 0;
	}
	if (c->cnt >= kmsg_max_count) {
		__sync_fetch_and_add(&kmsg_dropped, 1);
		return NULL;
	}
	return c;
}

static __always_inline struct rs_kmsg_rec *kmsg_start(struct session *s, __u8 kind, __u64 caller)
{
	struct rs_kmsg_rec *r;

	r = bpf_ringbuf_reserve(&rb, sizeof(*r), 0);
	if (!r) {
		__sync_fetch_and_add(&kmsg_dropped, 1);
		return NULL;
	}
	r->type = RS_REC_KMSG;
	r->kind = kind;
	r->literal = 0;
	r->nargs = 0;
	r->str_ok = 0;
	r->session_id = s->id;
	r->time_ns = bpf_ktime_get_ns();
	r->caller = caller;
	r->prefix[0] = 0;
	r->fmt[0] = 0;
	/* The session's discard then frees the message in user space too (report.bpf.h). */
	s->args_sent = true;
	return r;
}

#if defined(__TARGET_ARCH_x86)
/*
 * Reads a stack slot of the caller's frame: at entry the return address sits at sp, the 7th
 * argument above it. arm64 passes the first eight arguments in registers: no stack read.
 */
static __always_inline __u64 stack_arg(struct pt_regs *ctx, int slot)
{
	__u64 v = 0;

	bpf_probe_read_kernel(&v, sizeof(v), (void *)(PT_REGS_SP(ctx) + 8 * slot));
	return v;
}
#endif

/*
 * logfc()'s first variadic arguments, where the calling convention puts them. Each register is
 * read at a constant offset: the verifier refuses a context pointer moved by a loop.
 */
static __always_inline void logfc_varargs(struct pt_regs *ctx, __u64 *a)
{
#if defined(__TARGET_ARCH_x86)
	a[0] = PT_REGS_PARM5(ctx);
	a[1] = PT_REGS_PARM6(ctx);
	a[2] = stack_arg(ctx, 1);
	a[3] = stack_arg(ctx, 2);
#else
	a[0] = ctx->user_regs.regs[4];
	a[1] = ctx->user_regs.regs[5];
	a[2] = ctx->user_regs.regs[6];
	a[3] = ctx->user_regs.regs[7];
#endif
}

static __always_inline void kmsg_read_args(struct rs_kmsg_rec *r, struct pt_regs *ctx)
{
	logfc_varargs(ctx, r->args);
	for (int i = 0; i < RS_KMSG_ARGS; i++) {
		/* An integer is no kernel address: the read fails and the slot stays unused. */
		if (bpf_probe_read_kernel_str(r->strs[i], RS_KMSG_STR, (void *)r->args[i]) > 0)
			r->str_ok |= 1 << i;
		else
			r->strs[i][0] = 0;
	}
	r->nargs = RS_KMSG_ARGS;
}

/*
 * The record of a message whose kprobe sits at the entry of the kernel's message function, its
 * caller the return address; NULL outside a session or past its bound.
 */
static __always_inline struct rs_kmsg_rec *kprobe_kmsg(struct pt_regs *ctx, __u8 kind)
{
	struct session *s = open_session();
	struct kmsg_count *c;
	struct rs_kmsg_rec *r;
	__u64 caller = 0;

	if (!s)
		return NULL;
	c = kmsg_admit(s);
	if (!c)
		return NULL;
	BPF_KPROBE_READ_RET_IP(caller, ctx);
	r = kmsg_start(s, kind, caller);
	if (r)
		c->cnt++;
	return r;
}

/* void logfc(struct fc_log *log, const char *prefix, char level, const char *fmt, ...) */
SEC("kprobe")
int BPF_KPROBE(kmsg_logfc, void *log, const char *prefix, char level, const char *fmt)
{
	struct rs_kmsg_rec *r = kprobe_kmsg(ctx, RS_KMSG_FS);

	if (!r)
		return 0;
	if (prefix)
		bpf_probe_read_kernel_str(r->prefix, sizeof(r->prefix), prefix);
	bpf_probe_read_kernel_str(r->fmt, sizeof(r->fmt), fmt);
	kmsg_read_args(r, ctx);
	bpf_ringbuf_submit(r, 0);
	return 0;
}

/* void do_trace_netlink_extack(const char *msg): every NL_SET_ERR_MSG*() passes here. */
SEC("kprobe")
int BPF_KPROBE(kmsg_extack, const char *msg)
{
	struct rs_kmsg_rec *r = kprobe_kmsg(ctx, RS_KMSG_EXTACK);

	if (!r)
		return 0;
	r->literal = 1;
	bpf_probe_read_kernel_str(r->fmt, sizeof(r->fmt), msg);
	bpf_ringbuf_submit(r, 0);
	return 0;
}

/*
 * bpf_verifier_vlog(log, fmt, args) formats its text into log->kbuf before copying it out: read
 * it on return, formatted, instead of walking a va_list. A line often comes in pieces (a
 * register state is printed a field at a time): user space joins them, and the line counts
 * against the bound once, with its last piece.
 */
SEC("fexit/bpf_verifier_vlog")
int BPF_PROG(kmsg_verifier, struct bpf_verifier_log *log)
{
	struct session *s = open_session();
	struct kmsg_count *c;
	struct rs_kmsg_rec *r;
	__u32 last;
	long len;

	if (!s)
		return 0;
	c = kmsg_admit(s);
	if (!c)
		return 0;
	r = kmsg_start(s, RS_KMSG_VERIFIER, 0);
	if (!r)
		return 0;
	r->literal = 1;
	len = bpf_probe_read_kernel_str(r->fmt, sizeof(r->fmt), log->kbuf);
	last = len - 2;
	/* A piece cut at the record's size ends its line here too. */
	if (len < 2 || last >= RS_KMSG_FMT - 2 || r->fmt[last] == '\n')
		c->cnt++;
	bpf_ringbuf_submit(r, 0);
	return 0;
}
