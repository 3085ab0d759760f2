/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What every attach mechanism's program runs once it knows the function id: a traced call's
 * entry (on_func_entry()), its return (on_func_exit()) and an injected probe's hit
 * (on_probe_hit()). BPF only. The programs in tracer.bpf.c differ only in how they find the id
 * and the return value, so that a fix to what is recorded holds for every mechanism.
 *
 * The session work of a call is in two global functions, rs_session_enter() and
 * rs_session_exit(): the verifier checks a global function once, on its own, with scalar
 * arguments, where it checks an inlined body once per path of its caller. That keeps every
 * program small to verify, which is most of the start-up of one fentry/fexit copy per traced
 * function. Only what needs the program's context (its stack, its arguments, the probed
 * address) stays inline, and runs only when the run asked for it.
 */
#ifndef RETSNOOP_BPF_HANDLERS_BPF_H
#define RETSNOOP_BPF_HANDLERS_BPF_H

#include "vmlinux_min.h"
#include <bpf/bpf_helpers.h>
#include "abi.h"
#include "chain.h"
#include "result_kind.h"
#include "globals.bpf.h"
#include "session_table.bpf.h"
#include "admission.bpf.h"
#include "capture.bpf.h"
#include "report.bpf.h"
#include "session_lifecycle.bpf.h"
#include "func_ids.bpf.h"

/*
 * rs_session_enter()'s verdicts. A non-negative return is instead the slot of the session the
 * call entered, whose entry stack or arguments the program still has to take (entry_capture()).
 */
enum enter_verdict {
	ENTER_DONE = -1,       /* recorded, or dropped with the session kept */
	ENTER_OUTSIDE = -2,    /* outside any session: its return has nothing to do */
	ENTER_ASK_FILTER = -3, /* would open a session: --arg-filter decides first */
};

/* What rs_session_enter()'s key is, as bit flags. */
enum enter_how {
	ENTER_BY_IP = 1,    /* the probed address, not the function id */
	ENTER_NO_OPEN = 2,  /* a function that never opens a session (kprobe event's cookie) */
	ENTER_FILTERED = 4, /* --arg-filter admitted the call */
};

/*
 * The parts of a call's entry that branch most, each a global function of its own: the verifier
 * checks each once instead of once per path through the others. A session goes between them by
 * its slot in sessions (functions take and return scalars only before 5.12).
 */

/* The slot of the thread's open session, or -1. */
__noinline int rs_current_slot(void)
{
	struct session *s = current_session();

	return s ? (int)s->slot : -1;
}

/* The id of the function at ip, or -1 (func_id_of_ip()). */
__noinline int rs_func_id_of_ip(__u64 ip)
{
	return func_id_of_ip(ip);
}

/* Opens a session for the thread if it may have one: its slot, or -1. */
__noinline int rs_session_open(void)
{
	struct task_comm comm = {};
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	struct session *s;

	if (!task_may_open_session(pid_tgid >> 32, &comm))
		return -1;
	s = session_start(session_key((__u32)pid_tgid), pid_tgid, bpf_ktime_get_ns(), &comm);
	return s ? (int)s->slot : -1;
}

/* Function id's entry in the thread's session, opened here if id is an entry function. */
__noinline int rs_session_enter(__u64 key, __u32 how)
{
	int slot = rs_current_slot();
	struct session *s;
	__s64 id = key;
	__u64 now;

	if (slot < 0 && (how & ENTER_NO_OPEN))
		return ENTER_OUTSIDE;
	if (how & ENTER_BY_IP)
		id = rs_func_id_of_ip(key);
	if (id < 0)
		return ENTER_OUTSIDE;
	if (slot < 0) {
		if (!is_entry_func_id(id))
			return ENTER_OUTSIDE;
		if (has_arg_filter && !(how & ENTER_FILTERED))
			return ENTER_ASK_FILTER;
		slot = rs_session_open();
		if (slot < 0)
			return ENTER_OUTSIDE;
	}
	s = session_at(slot);
	if (!s)
		return ENTER_OUTSIDE;
	now = bpf_ktime_get_ns();
	if (interim_stacks && rs_chain_entry_replaces_failure(&s->chain))
		report_interim(s, now);
	if (!rs_chain_enter(&s->chain, id, now)) {
		__sync_fetch_and_add(&stats.depth_overflow, 1);
		return ENTER_DONE;
	}
	/* A call's -A record goes before the record that shows it: entry_capture() sends both. */
	if (kstack_at_entry || capture_args)
		return slot;
	if (emit_trace)
		emit_call_rec(s, id, s->chain.depth - 1, true, now, 0);
	return ENTER_DONE;
}

/* What needs the entry program's context, for the call rs_session_enter() just entered. */
static __always_inline void entry_capture(void *ctx, __u32 slot)
{
	struct session *s = bpf_map_lookup_elem(&sessions, &slot);
	__u32 d, id;

	if (!s)
		return;
	d = s->chain.depth - 1;
	if (d >= RS_MAX_DEPTH)
		return;
	id = s->chain.frames[d].func_id;
	if (kstack_at_entry)
		take_entry_kstack(ctx, s, d, is_user_func_id(id));
	if (capture_args)
		s->args_sent |= rs_capture_args(ctx, &rb, s->id, id, s->chain.next_seq - 1);
	if (emit_trace)
		emit_call_rec(s, id, d, true, s->chain.frames[d].start_ns, 0);
}

/*
 * Returns 1 when the call is outside any session, so its return has nothing to do: a kprobe
 * session program (rs_ksession) then skips it. Every other program returns 0. Most hits of a
 * non-entry function outside a session end at its first lookup: no clock read, no hashing.
 * by_ip (a constant): kprobe events carry no function id, which is then looked up by address.
 */
static __always_inline int on_func_entry(void *ctx, __u32 id, bool by_ip)
{
	__u32 how = 0;
	__u64 key = id;
	__s64 found;
	int r;

	if (!ready)
		return 0;
	if (by_ip) {
		how = ENTER_BY_IP;
		if (has_cookie && bpf_get_attach_cookie(ctx) != RS_KEV_ENTRY_FUNCS)
			how |= ENTER_NO_OPEN;
		key = probed_func_ip(ctx);
	}
	r = rs_session_enter(key, how);
	if (has_arg_filter && r == ENTER_ASK_FILTER) {
		found = by_ip ? rs_func_id_of_ip(key) : id;
		if (found < 0 || !arg_filter_admits(ctx, found))
			return 1;
		r = rs_session_enter(found, ENTER_FILTERED);
	}
	if ((kstack_at_entry || capture_args) && r >= 0)
		entry_capture(ctx, r);
	return r == ENTER_OUTSIDE || r == ENTER_ASK_FILTER;
}

/* What rs_session_exit()'s key is. */
enum exit_how {
	EXIT_BY_ID,  /* the function id */
	EXIT_BY_IP,  /* the probed address */
	EXIT_RESUME, /* a session slot whose stacks the program took: the steps still to do */
};

/*
 * A return inside a session is most often the one of its innermost running call: the address
 * in that call's descriptor confirms it without a search of func_slots.
 */
static __always_inline __s64 returning_func_id(struct session *s, __u64 ip)
{
	struct rs_func_desc *desc;
	__u32 d = s->chain.depth - 1, id;

	if (d < RS_MAX_DEPTH) {
		id = s->chain.frames[d].func_id;
		desc = bpf_map_lookup_elem(&func_descs, &id);
		if (desc && desc->addr == ip)
			return id;
	}
	return func_id_of_ip(ip);
}

/* After the call at level d (< RS_MAX_DEPTH) returned res: its -T record, the session's end. */
static __always_inline void session_exit_finish(struct session *s, __u32 d, int steps, __s64 res)
{
	struct rs_frame *f = &s->chain.frames[d & (RS_MAX_DEPTH - 1)];

	if (emit_trace)
		emit_call_rec(s, f->func_id, d, false, f->dur_ns, res);
	if (steps & RS_STEP_CLOSE)
		session_end(s, f->start_ns + f->dur_ns);
}

/*
 * A return in the thread's session. Returns -1 when done, or the session's slot (high word) and
 * the steps rs_chain_exit() asked for (low word) when its stacks are to be taken: the program
 * takes them, then calls again with EXIT_RESUME, the slot and those steps.
 */
__noinline long rs_session_exit(__u64 key, __s64 res, __u32 how, __u32 resume_steps)
{
	struct rs_func_desc *desc;
	struct session *s;
	__u32 slot, fid, d;
	bool failed;
	__s64 id;
	__u64 now;
	int steps;

	if (how == EXIT_RESUME) {
		slot = key;
		s = bpf_map_lookup_elem(&sessions, &slot);
		d = s ? s->chain.depth : RS_MAX_DEPTH;
		if (d < RS_MAX_DEPTH)
			session_exit_finish(s, d, resume_steps, res);
		return -1;
	}
	s = current_session_if_ready();
	if (!s)
		return -1;
	id = how == EXIT_BY_IP ? returning_func_id(s, key) : (__s64)key;
	if (id < 0)
		return -1;
	fid = id;
	desc = bpf_map_lookup_elem(&func_descs, &fid);
	if (!desc)
		return -1;
	now = bpf_ktime_get_ns();
	/*
	 * -x/-X and the return-value filters are not applied here: they judge the whole reported
	 * stack in user space and must not change which failure is the deepest one.
	 */
	failed = rs_result_failed(res, desc->ret_kind);
	if (interim_stacks && rs_chain_exit_handles_failure(&s->chain, failed))
		report_interim(s, now);
	steps = rs_chain_exit(&s->chain, id, res, failed, success_stacks, now);
	if (steps & RS_STEP_BROKEN) {
		/* We saw the exit but not the entry (missed probe, or attached mid-call). */
		__sync_fetch_and_add(&stats.sessions_broken, 1);
		session_discard(s);
		session_release(s);
		return -1;
	}
	d = s->chain.depth; /* rs_chain_exit() popped the returning call: its level */
	if (steps & RS_STEP_CAPTURE)
		return ((__u64)s->slot << 32) | (__u32)steps;
	/* Deeper levels are not kept, and never the last one (RS_STEP_CLOSE). */
	if (d < RS_MAX_DEPTH)
		session_exit_finish(s, d, steps, res);
	return -1;
}

/*
 * A return (key and how as rs_session_exit() takes them) recorded in the thread's session if
 * it has one; lbr: the snapshot the exit program took first (lbr_snapshot()).
 */
static __always_inline int on_func_exit(void *ctx, __u64 key, enum exit_how how, __s64 res,
					const struct lbr_snap *lbr)
{
	struct session *s;
	long r;
	__u32 slot;

	if (!ready)
		return 0;
	r = rs_session_exit(key, res, how, 0);
	if (r < 0)
		return 0;
	slot = r >> 32;
	s = bpf_map_lookup_elem(&sessions, &slot);
	if (s)
		capture_stacks(ctx, s, (__u32)r, lbr);
	rs_session_exit(slot, res, EXIT_RESUME, (__u32)r);
	return 0;
}

/*
 * Injected probes (-J) record only inside a session of the same thread and never open one:
 * elsewhere a hit costs an array lookup. User space rejects -J without -T.
 */
static __always_inline int on_probe_hit(void *ctx, __u32 probe_id, enum slot_source src)
{
	struct session *s;
	struct rs_probe_rec r = { .type = RS_REC_PROBE, .probe_id = probe_id };

	if (!ready)
		return 0;
	s = current_session();
	if (!s)
		return 0;
	r.depth = s->chain.depth;
	r.session_id = s->id;
	r.seq = s->trace_cnt + s->trace_lost;
	r.time_ns = bpf_ktime_get_ns();
	/* Like a call's arguments, sent before the record that shows them. */
	if (capture_args)
		s->args_sent |= rs_capture_probe_args(ctx, &rb, s->id, probe_id, r.seq, src);
	emit_trace_rec(s, &r, sizeof(r));
	return 0;
}

#endif /* RETSNOOP_BPF_HANDLERS_BPF_H */
