// SPDX-License-Identifier: BSD-2-Clause
/*
 * The kernel's own messages, recorded while a session is open on the emitting thread: fs_context
 * errors (logfc), netlink extended acks, BPF verifier log lines and printk() text. A separate object from
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
	__u32 line_open;   /* the verifier's last piece did not end its line */
	__u32 printk_echo; /* the fs message just recorded is about to be printk'ed too */
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

/* The session's count of messages, reset when the slot holds a new session. */
static __always_inline struct kmsg_count *kmsg_count_of(struct session *s)
{
	__u32 slot = s->slot;
	struct kmsg_count *c = bpf_map_lookup_elem(&kmsg_counts, &slot);

	if (c && c->session_id != s->id) {
		c->session_id = s->id;
		c->cnt = 0;
		c->line_open = 0;
		c->printk_echo = 0;
	}
	return c;
}

/* Whether c has room for one more message; a message past the bound is counted as dropped. */
static __always_inline bool kmsg_room(struct kmsg_count *c)
{
	if (c->cnt < kmsg_max_count)
		return true;
	__sync_fetch_and_add(&kmsg_dropped, 1);
	return false;
}

/*
 * The session's count of messages, or NULL once it holds kmsg_max_count: the caller counts a
 * message when it is complete.
 */
static __always_inline struct kmsg_count *kmsg_admit(struct session *s)
{
	struct kmsg_count *c = kmsg_count_of(s);

	return c && kmsg_room(c) ? c : NULL;
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
	r->stack[0] = 0;
	/* The session's discard then frees the message in user space too (report.bpf.h). */
	s->args_sent = true;
	return r;
}

/*
 * A message is of use only with its session's record, and the tracer wakes the reader for those
 * in batches (report.bpf.h): a wake-up per message would cost the emitting thread an irq_work
 * for nothing. Messages wake it only once a batch of records waits, so that a run of them
 * cannot fill the ring buffer behind a sleeping reader.
 */
static __always_inline void kmsg_submit(struct rs_kmsg_rec *r)
{
	bpf_ringbuf_submit(r, rb_batch_waits() ? BPF_RB_FORCE_WAKEUP : BPF_RB_NO_WAKEUP);
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

/*
 * The strings behind r->args, those that are kernel addresses: those sit in the upper half of the
 * address space (x86-64, arm64), and skipping the rest spares a faulting read per integer.
 */
static __always_inline void kmsg_read_strs(struct rs_kmsg_rec *r)
{
	for (int i = 0; i < RS_KMSG_ARGS; i++) {
		if ((__s64)r->args[i] < 0 &&
		    bpf_probe_read_kernel_str(r->strs[i], RS_KMSG_STR, (void *)r->args[i]) > 0)
			r->str_ok |= 1 << i;
		else
			r->strs[i][0] = 0;
	}
	r->nargs = RS_KMSG_ARGS;
}

static __always_inline void kmsg_read_args(struct rs_kmsg_rec *r, struct pt_regs *ctx)
{
	logfc_varargs(ctx, r->args);
	kmsg_read_strs(r);
}

/*
 * The record of a message from caller, counted; NULL outside a session or past its bound.
 * printk_follows: the kernel prints this message with printk() right after (logfc() without a
 * log), and that copy is left out: one record, the fs one, which names the context.
 */
static __always_inline struct rs_kmsg_rec *session_kmsg(__u8 kind, __u64 caller,
							bool printk_follows)
{
	struct session *s = open_session();
	struct kmsg_count *c;
	struct rs_kmsg_rec *r;

	if (!s)
		return NULL;
	c = kmsg_count_of(s);
	if (!c)
		return NULL;
	if (kind == RS_KMSG_PRINTK && c->printk_echo) {
		c->printk_echo = 0;
		return NULL;
	}
	if (!kmsg_room(c))
		return NULL;
	r = kmsg_start(s, kind, caller);
	if (r) {
		c->cnt++;
		c->printk_echo = printk_follows;
	}
	return r;
}

/*
 * The record of a message whose kprobe sits at the entry of the kernel's message function, its
 * caller the return address.
 */
static __always_inline struct rs_kmsg_rec *kprobe_kmsg(struct pt_regs *ctx, __u8 kind,
						       bool printk_follows)
{
	__u64 caller = 0;

	BPF_KPROBE_READ_RET_IP(caller, ctx);
	return session_kmsg(kind, caller, printk_follows);
}

/* void logfc(struct fc_log *log, const char *prefix, char level, const char *fmt, ...) */
SEC("kprobe")
int BPF_KPROBE(kmsg_logfc, void *log, const char *prefix, char level, const char *fmt)
{
	struct rs_kmsg_rec *r = kprobe_kmsg(ctx, RS_KMSG_FS, !log);

	if (!r)
		return 0;
	if (prefix)
		bpf_probe_read_kernel_str(r->prefix, sizeof(r->prefix), prefix);
	bpf_probe_read_kernel_str(r->fmt, sizeof(r->fmt), fmt);
	kmsg_read_args(r, ctx);
	kmsg_submit(r);
	return 0;
}

/* void do_trace_netlink_extack(const char *msg): every NL_SET_ERR_MSG*() passes here. */
SEC("kprobe")
int BPF_KPROBE(kmsg_extack, const char *msg)
{
	struct rs_kmsg_rec *r = kprobe_kmsg(ctx, RS_KMSG_EXTACK, false);

	if (!r)
		return 0;
	r->literal = 1;
	bpf_probe_read_kernel_str(r->fmt, sizeof(r->fmt), msg);
	kmsg_submit(r);
	return 0;
}

/*
 * bpf_verifier_vlog(log, fmt, args) formats its text into log->kbuf before copying it out: read
 * it on return, formatted, instead of walking a va_list. A line often comes in pieces (a
 * register state is printed a field at a time): user space joins them, and the line counts
 * against the bound once, with its last piece.
 */
static __always_inline void verifier_line(void *ctx, struct bpf_verifier_log *log)
{
	struct session *s = open_session();
	struct kmsg_count *c;
	struct rs_kmsg_rec *r;
	__u32 last;
	long len;

	if (!s)
		return;
	c = kmsg_admit(s);
	if (!c)
		return;
	r = kmsg_start(s, RS_KMSG_VERIFIER, 0);
	if (!r)
		return;
	r->literal = 1;
	/*
	 * The line's writer is the caller of verbose() or bpf_verifier_log_write(): user space
	 * keeps the stack of a line's first piece only, so the others skip taking one.
	 */
	if (!c->line_open)
		bpf_get_stack(ctx, r->stack, sizeof(r->stack), 0);
	len = bpf_probe_read_kernel_str(r->fmt, sizeof(r->fmt), log->kbuf);
	last = len - 2;
	/* A piece cut at the record's size ends its line here too. */
	c->line_open = 1;
	if (len < 2 || last >= RS_KMSG_FMT - 2 || r->fmt[last] == '\n') {
		c->cnt++;
		c->line_open = 0;
	}
	kmsg_submit(r);
}

SEC("fexit/bpf_verifier_vlog")
int BPF_PROG(kmsg_verifier, struct bpf_verifier_log *log)
{
	verifier_line(ctx, log);
	return 0;
}

/*
 * Without the fexit program (arm64, whose trampolines take no struct argument such as its
 * va_list, or a kernel that refuses it), a kprobe keeps the log of a call made inside a session,
 * by thread, for its kretprobe. LRU: a return the kernel missed leaves an entry that a later one
 * evicts.
 */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 1); /* sized by user space as the sessions map */
	__type(key, __u32);
	__type(value, __u64);
} vlog_calls SEC(".maps");

SEC("kprobe")
int BPF_KPROBE(kmsg_verifier_entry, struct bpf_verifier_log *log)
{
	__u32 tid = bpf_get_current_pid_tgid();
	__u64 addr = (__u64)log;

	if (open_session())
		bpf_map_update_elem(&vlog_calls, &tid, &addr, BPF_ANY);
	return 0;
}

SEC("kretprobe")
int BPF_KRETPROBE(kmsg_verifier_exit)
{
	__u32 tid = bpf_get_current_pid_tgid();
	__u64 *addr = bpf_map_lookup_elem(&vlog_calls, &tid);
	struct bpf_verifier_log *log;

	if (!addr)
		return 0;
	log = (struct bpf_verifier_log *)*addr;
	bpf_map_delete_elem(&vlog_calls, &tid);
	verifier_line(ctx, log);
	return 0;
}

/*
 * The va_list of a variadic function called with its named arguments in registers: general
 * registers saved in reg_save_area up to 48 bytes, the rest in the caller's frame (x86-64); or
 * below gr_top while gr_offs is negative, then on the stack (arm64).
 */
#if defined(__TARGET_ARCH_x86)
struct kmsg_va_list {
	__u32 gp_offset;
	__u32 fp_offset;
	__u64 overflow_arg_area;
	__u64 reg_save_area;
};

static __always_inline __u64 va_arg_addr(const struct kmsg_va_list *va, int i)
{
	__u32 off = va->gp_offset + 8 * i;

	if (off < 48)
		return va->reg_save_area + off;
	return va->overflow_arg_area + (off - (va->gp_offset < 48 ? 48 : va->gp_offset));
}
#else
struct kmsg_va_list {
	__u64 stack;
	__u64 gr_top;
	__u64 vr_top;
	__s32 gr_offs;
	__s32 vr_offs;
};

static __always_inline __u64 va_arg_addr(const struct kmsg_va_list *va, int i)
{
	__s32 off = va->gr_offs + 8 * i;

	if (off < 0)
		return va->gr_top + off;
	return va->stack + (off - (va->gr_offs < 0 ? 0 : va->gr_offs));
}
#endif

/*
 * Skips the KERN_<LEVEL> and KERN_CONT prefixes: each is the SOH byte and one character.
 */
static __always_inline const char *printk_text(const char *fmt)
{
	char head[2];

	for (int i = 0; i < 2; i++) {
		if (bpf_probe_read_kernel(head, sizeof(head), fmt) || head[0] != '\001' || !head[1])
			break;
		fmt += 2;
	}
	return fmt;
}

/* Reads the format and the first arguments of a va_list; their strings are read once, last. */
static __always_inline void printk_read(struct rs_kmsg_rec *r, const char *fmt, void *args)
{
	struct kmsg_va_list va;

	bpf_probe_read_kernel_str(r->fmt, sizeof(r->fmt), fmt);
	for (int i = 0; i < RS_KMSG_ARGS; i++)
		r->args[i] = 0;
	if (bpf_probe_read_kernel(&va, sizeof(va), args))
		return;
	for (int i = 0; i < RS_KMSG_ARGS; i++)
		bpf_probe_read_kernel(&r->args[i], sizeof(r->args[i]), (void *)va_arg_addr(&va, i));
}

/*
 * Bytes of a format searched for %pV: the wrappers that print through it (dev_printk(),
 * logfc() without a log) put it within their first few conversions, near the start.
 */
#define PV_SCAN 48

/*
 * The argument index of fmt's %pV conversion, or -1. The scan stops at the last argument kept,
 * and is unrolled: the verifier then merges the few (count, after-'%') states at each byte,
 * where walking the rolled loop cost it some fifty times the instructions and seconds of
 * start-up.
 */
static __always_inline int pv_index(const char *fmt)
{
	bool after_pct = false;
	int n = 0;

#pragma unroll
	for (int i = 0; i < PV_SCAN; i++) {
		char c = fmt[i];

		if (!c)
			break;
		if (after_pct) {
			after_pct = false;
			if (c == '%') /* "%%" prints a '%' and takes no argument */
				continue;
			if (c == 'p' && fmt[i + 1] == 'V')
				return n;
			if (++n >= RS_KMSG_ARGS)
				break;
		} else if (c == '%') {
			after_pct = true;
		}
	}
	return -1;
}

/* struct va_format: a format and its va_list, printed by %pV. */
struct kmsg_va_format {
	__u64 fmt;
	__u64 va;
};

/*
 * int vprintk_store(int facility, int level, const struct dev_printk_info *dev_info,
 *                   const char *fmt, va_list args): every printk() and dev_printk() passes here.
 * dev_printk() and logfc() without a log print "%s ...%pV": the message is the %pV's format and
 * arguments, prefixed with the first string (the driver's or the filesystem's name). The caller
 * at the probe is the printk machinery: the emitter is found in the stack.
 */
SEC("kprobe")
int BPF_KPROBE(kmsg_printk, int facility, int level, void *dev_info, const char *fmt, void *args)
{
	struct rs_kmsg_rec *r = session_kmsg(RS_KMSG_PRINTK, 0, false);
	struct kmsg_va_format vaf;
	int k;

	if (!r)
		return 0;
	bpf_get_stack(ctx, r->stack, sizeof(r->stack), 0);
	printk_read(r, printk_text(fmt), args);
	k = pv_index(r->fmt);
	if (k >= 0 && k < RS_KMSG_ARGS &&
	    !bpf_probe_read_kernel(&vaf, sizeof(vaf), (void *)r->args[k])) {
		if (k > 0 && (__s64)r->args[0] < 0)
			bpf_probe_read_kernel_str(r->prefix, sizeof(r->prefix), (void *)r->args[0]);
		printk_read(r, (const char *)vaf.fmt, (void *)vaf.va);
	}
	kmsg_read_strs(r);
	kmsg_submit(r);
	return 0;
}
