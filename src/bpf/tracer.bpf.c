// SPDX-License-Identifier: BSD-2-Clause
/*
 * Session recording. Every traced function gets the same entry and exit handler; the attach
 * mechanism only decides how a handler learns the function id (attach cookie or IP lookup) and
 * the return value. Per thread, the first call of an entry function opens a session; calls
 * inside it are kept as a stack of up to RS_MAX_DEPTH levels; when the entry call returns, the
 * session is sent to user space if it is worth reporting (SPEC section 4).
 */
#include "vmlinux_min.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "abi.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/* Set by user space before load. */
const volatile bool success_stacks = false;  /* -S */
const volatile bool emit_trace = false;      /* -T */
const volatile bool capture_lbr = false;     /* --lbr */
const volatile __u64 min_duration_ns = 0;    /* -L */
const volatile bool has_pid_allow = false;   /* -p given */
const volatile bool has_comm_allow = false;  /* -n given */
const volatile bool has_err_allow = false;   /* -x given */
const volatile __u64 err_allow[RS_ERRNO_BITMAP_WORDS] = {}; /* bit N: -N counts as error, bit 0: NULL */
const volatile __u64 err_deny[RS_ERRNO_BITMAP_WORDS] = {};

/* Flipped by user space once every probe is attached: until then handlers do nothing. */
bool ready = false;
__u64 session_counter = 0;
struct rs_stats stats = {};

struct session {
	__u32 depth;      /* current call depth, may exceed RS_MAX_DEPTH */
	__u32 max_depth;  /* length of the chain of interest */
	__u32 next_seq;
	__u32 saved_depth;
	__u32 trace_seq;
	bool is_err;
	bool kstack_err;
	__u8 pad[2];
	struct rs_session_rec rec;
	struct rs_part_hdr frames_hdr;
	struct rs_frame frames[RS_MAX_DEPTH];
	struct rs_part_hdr saved_hdr;
	struct rs_frame saved[RS_MAX_DEPTH];
	struct rs_part_hdr kstack_hdr;
	__u64 kstack[RS_MAX_KSTACK];
	struct rs_part_hdr lbr_hdr;
	struct rs_lbr_entry lbr[RS_MAX_LBR];
};

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 8 << 20); /* resized by user space */
} rb SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4096); /* resized by user space */
	__type(key, __u64);
	__type(value, struct session);
} sessions SEC(".maps");

/* A zeroed session to insert from: values this large cannot live on the BPF stack. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct session);
} session_zero SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1); /* resized to the number of functions */
	__type(key, __u32);
	__type(value, struct rs_func_desc);
} func_descs SEC(".maps");

/* -p/-P: value 1 allows, 0 denies. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 64);
	__type(key, __u32);
	__type(value, __u8);
} pid_filter SEC(".maps");

/* -n/-N: value 1 allows, 0 denies. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 64);
	__type(key, char[RS_COMM_LEN]);
	__type(value, __u8);
} comm_filter SEC(".maps");

/* Idle tasks share TID 0 on every CPU: key them per CPU instead. */
static __always_inline __u64 session_key(__u32 tid)
{
	if (tid)
		return tid;
	return (1ULL << 32) | bpf_get_smp_processor_id();
}

static __always_inline bool task_passes_filters(__u32 pid, const char *comm)
{
	__u8 *verdict = bpf_map_lookup_elem(&pid_filter, &pid);

	if (verdict && !*verdict)
		return false;
	if (has_pid_allow && !verdict)
		return false;
	verdict = bpf_map_lookup_elem(&comm_filter, comm);
	if (verdict && !*verdict)
		return false;
	if (has_comm_allow && !verdict)
		return false;
	return true;
}

static __always_inline struct session *session_open(__u64 key, __u64 pid_tgid, __u64 now)
{
	struct task_struct *task = (void *)bpf_get_current_task();
	__u32 zero = 0, pid = pid_tgid >> 32;
	struct session *tmpl, *s;
	char comm[RS_COMM_LEN];

	bpf_get_current_comm(comm, sizeof(comm));
	if (!task_passes_filters(pid, comm))
		return NULL;
	tmpl = bpf_map_lookup_elem(&session_zero, &zero);
	if (!tmpl)
		return NULL;
	if (bpf_map_update_elem(&sessions, &key, tmpl, BPF_NOEXIST)) {
		__sync_fetch_and_add(&stats.sessions_nomem, 1);
		return NULL;
	}
	s = bpf_map_lookup_elem(&sessions, &key);
	if (!s)
		return NULL;
	s->rec.session_id = __sync_fetch_and_add(&session_counter, 1) + 1;
	s->rec.pid = pid;
	s->rec.tid = (__u32)pid_tgid;
	s->rec.start_ns = now;
	__builtin_memcpy(s->rec.task_comm, comm, sizeof(comm));
	BPF_CORE_READ_STR_INTO(&s->rec.proc_comm, task, group_leader, comm);
	return s;
}

static __always_inline void emit_call_rec(struct session *s, __u32 id, __u32 depth, bool entry,
					   __u64 ts, __s64 res)
{
	struct rs_call_rec r = {
		.type = RS_REC_CALL,
		.depth = depth,
		.is_entry = entry,
		.session_id = s->rec.session_id,
		.func_id = id,
		.seq = s->trace_seq++,
		.ts_ns = ts,
		.res = res,
	};

	if (bpf_ringbuf_output(&rb, &r, sizeof(r), 0))
		s->rec.trace_lost++;
	else
		s->rec.trace_cnt++;
}

/* An earlier failing chain is about to be overwritten by a sibling call: keep it for stitching. */
static __always_inline void save_failed_chain(struct session *s)
{
	__u32 i, n = s->max_depth;

	for (i = 0; i < RS_MAX_DEPTH && i < n; i++)
		s->saved[i] = s->frames[i];
	s->saved_depth = i;
}

static __always_inline int handle_entry(void *ctx, __u32 id)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	__u64 key = session_key((__u32)pid_tgid);
	__u64 now = bpf_ktime_get_ns();
	struct rs_func_desc *desc;
	struct session *s;
	__u32 d;

	if (!ready)
		return 0;
	s = bpf_map_lookup_elem(&sessions, &key);
	if (!s) {
		desc = bpf_map_lookup_elem(&func_descs, &id);
		if (!desc || !(desc->flags & RS_FUNC_ENTRY))
			return 0;
		s = session_open(key, pid_tgid, now);
		if (!s)
			return 0;
	}

	d = s->depth++;
	if (d >= RS_MAX_DEPTH) {
		__sync_fetch_and_add(&stats.depth_overflow, 1);
		return 0;
	}
	if (s->is_err) {
		save_failed_chain(s);
		s->is_err = false;
	}
	s->max_depth = d + 1;
	s->frames[d].func_id = id;
	s->frames[d].seq = s->next_seq++;
	s->frames[d].start_ns = now;
	s->frames[d].dur_ns = 0;
	s->frames[d].res = 0;
	if (emit_trace)
		emit_call_rec(s, id, d, true, now, 0);
	return 0;
}

static __always_inline bool errno_in(const volatile __u64 *bitmap, __u32 err)
{
	if (err >= RS_ERRNO_BITMAP_WORDS * 64)
		return false;
	return bitmap[err / 64] & (1ULL << (err % 64));
}

/* SPEC section 4: judge a return value by the function's BTF return type; apply -x/-X. */
static __always_inline bool result_failed(__s64 res, __u8 kind)
{
	__u32 err;

	switch (kind) {
	case RS_RET_PTR:
		if (res == 0) {
			err = 0;
			break;
		}
		if ((__u64)res < (__u64)-RS_MAX_ERRNO)
			return false;
		err = -res;
		break;
	case RS_RET_INT32:
		if ((__s32)res >= 0 || (__s32)res < -RS_MAX_ERRNO)
			return false;
		err = -(__s32)res;
		break;
	case RS_RET_INT64:
		if (res >= 0 || res < -RS_MAX_ERRNO)
			return false;
		err = -res;
		break;
	default:
		return false;
	}
	if (errno_in(err_deny, err))
		return false;
	if (has_err_allow && !errno_in(err_allow, err))
		return false;
	return true;
}

static __always_inline void capture_stacks(void *ctx, struct session *s)
{
	long n;

	if (capture_lbr) {
		n = bpf_get_branch_snapshot(s->lbr, sizeof(s->lbr), 0);
		s->rec.lbr_cnt = n > 0 ? n / sizeof(s->lbr[0]) : 0;
	}
	n = bpf_get_stack(ctx, s->kstack, sizeof(s->kstack), 0);
	s->kstack_err = n < 0;
	s->rec.kstack_cnt = n > 0 ? n / sizeof(s->kstack[0]) : 0;
}

static __always_inline bool output_part(struct rs_part_hdr *hdr, __u32 type, __u32 cnt,
					__u32 max_cnt, __u32 elem_size, __u64 session_id)
{
	if (cnt > max_cnt)
		cnt = max_cnt;
	hdr->type = type;
	hdr->cnt = cnt;
	hdr->session_id = session_id;
	return bpf_ringbuf_output(&rb, hdr, sizeof(*hdr) + cnt * elem_size, 0) == 0;
}

/* An earlier failing chain is worth sending only if it continues below the reported chain. */
static __always_inline bool saved_chain_stitches(struct session *s)
{
	__u32 last = s->max_depth - 1;

	if (!s->saved_depth || s->saved_depth <= s->max_depth || last >= RS_MAX_DEPTH)
		return false;
	return s->saved[last].seq == s->frames[last].seq;
}

static __always_inline void session_emit(struct session *s, __u64 now)
{
	__u64 id = s->rec.session_id;
	bool ok = true;

	s->rec.type = RS_REC_SESSION;
	s->rec.end_ns = now;
	s->rec.flags |= s->is_err ? RS_SESS_ERROR : 0;
	s->rec.flags |= s->kstack_err ? RS_SESS_KSTACK_ERR : 0;
	s->rec.depth = s->max_depth > RS_MAX_DEPTH ? RS_MAX_DEPTH : s->max_depth;
	ok &= output_part(&s->frames_hdr, RS_REC_FRAMES, s->rec.depth, RS_MAX_DEPTH,
			  sizeof(struct rs_frame), id);
	if (saved_chain_stitches(s)) {
		s->rec.saved_depth = s->saved_depth;
		ok &= output_part(&s->saved_hdr, RS_REC_SAVED, s->saved_depth, RS_MAX_DEPTH,
				  sizeof(struct rs_frame), id);
	}
	ok &= output_part(&s->kstack_hdr, RS_REC_KSTACK, s->rec.kstack_cnt, RS_MAX_KSTACK,
			  sizeof(__u64), id);
	if (s->rec.lbr_cnt)
		ok &= output_part(&s->lbr_hdr, RS_REC_LBR, s->rec.lbr_cnt, RS_MAX_LBR,
				  sizeof(struct rs_lbr_entry), id);
	if (!ok)
		s->rec.flags |= RS_SESS_PART_LOST;
	if (bpf_ringbuf_output(&rb, &s->rec, sizeof(s->rec), 0))
		__sync_fetch_and_add(&stats.sessions_dropped, 1);
}

/* With -T, user space holds a session's call records until its header arrives. */
static __always_inline void session_discard(struct session *s)
{
	if (!emit_trace || !s->rec.trace_cnt)
		return;
	s->rec.type = RS_REC_SESSION;
	s->rec.flags = RS_SESS_DISCARD;
	bpf_ringbuf_output(&rb, &s->rec, sizeof(s->rec), 0);
}

static __always_inline bool session_reportable(struct session *s)
{
	if (!s->is_err && !success_stacks)
		return false;
	return s->frames[0].dur_ns >= min_duration_ns;
}

static __always_inline void session_close(struct session *s, __u64 key, __u64 now)
{
	if (session_reportable(s))
		session_emit(s, now);
	else
		session_discard(s);
	bpf_map_delete_elem(&sessions, &key);
}

static __always_inline int handle_exit(void *ctx, __u32 id, __s64 res)
{
	__u64 key = session_key((__u32)bpf_get_current_pid_tgid());
	__u64 now = bpf_ktime_get_ns();
	struct rs_func_desc *desc;
	struct session *s;
	bool failed;
	__u32 d;

	if (!ready)
		return 0;
	s = bpf_map_lookup_elem(&sessions, &key);
	if (!s || s->depth == 0)
		return 0;
	d = --s->depth;
	if (d >= RS_MAX_DEPTH)
		return 0;
	if (s->frames[d].func_id != id) {
		/* We saw the exit but not the entry (missed probe, or attached mid-call). */
		__sync_fetch_and_add(&stats.sessions_broken, 1);
		session_discard(s);
		bpf_map_delete_elem(&sessions, &key);
		return 0;
	}
	desc = bpf_map_lookup_elem(&func_descs, &id);
	if (!desc)
		return 0;

	s->frames[d].dur_ns = now - s->frames[d].start_ns;
	s->frames[d].res = res;
	failed = result_failed(res, desc->ret_kind);
	if (failed && !s->is_err) {
		/* First failure on the way up: the deepest failing chain. */
		s->is_err = true;
		s->max_depth = d + 1;
		capture_stacks(ctx, s);
	} else if (!failed && s->is_err) {
		/* The caller handled the error: it no longer explains anything. */
		s->is_err = false;
	} else if (!failed && success_stacks && d + 1 == s->max_depth) {
		capture_stacks(ctx, s);
	}
	if (emit_trace)
		emit_call_rec(s, id, d, false, now, res);
	if (d == 0)
		session_close(s, key, now);
	return 0;
}

/* kprobes and multi-kprobes: the attach cookie is the function id. */
SEC("kprobe")
int rs_kentry(struct pt_regs *ctx)
{
	return handle_entry(ctx, bpf_get_attach_cookie(ctx));
}

SEC("kretprobe")
int rs_kexit(struct pt_regs *ctx)
{
	return handle_exit(ctx, bpf_get_attach_cookie(ctx), ctx->ax);
}

SEC("kprobe.multi")
int rs_kmentry(struct pt_regs *ctx)
{
	return handle_entry(ctx, bpf_get_attach_cookie(ctx));
}

SEC("kretprobe.multi")
int rs_kmexit(struct pt_regs *ctx)
{
	return handle_exit(ctx, bpf_get_attach_cookie(ctx), ctx->ax);
}
