/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What every attach mechanism's program runs once it knows the function id: a traced call's
 * entry (on_func_entry()), its return (on_func_exit()) and an injected probe's hit
 * (on_probe_hit()). BPF only. The programs in tracer.bpf.c differ only in how they find the id
 * and the return value, so that a fix to what is recorded holds for every mechanism.
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
 * Returns 1 when the call is outside any session, so its return has nothing to do: a kprobe
 * session program (rs_ksession) then skips it. Every other program returns 0. Most hits of a
 * non-entry function outside a session end at is_entry_func(): no clock read, no hashing.
 * by_ip (a constant): kprobe events carry no function id, which is then looked up by address,
 * and only once the hit needs it.
 */
static __always_inline int on_func_entry(void *ctx, __u32 id, bool by_ip)
{
	struct task_comm comm = {};
	__u64 pid_tgid = 0, now = 0;
	bool need_id = by_ip; /* still to look up by address */
	struct session *s;

	if (!ready)
		return 0;
	s = current_session();
	if (s) {
		now = bpf_ktime_get_ns();
	} else {
		if (!is_entry_func(ctx, &id, by_ip))
			return 1;
		need_id = by_ip && has_cookie;
		pid_tgid = bpf_get_current_pid_tgid();
		if (!task_may_open_session(pid_tgid >> 32, &comm))
			return 1;
	}
	if (need_id) {
		__s64 found = func_id_of_ip(probed_func_ip(ctx));

		if (found < 0)
			return 1;
		id = found;
	}
	if (!s) {
		if (has_arg_filter && !arg_filter_admits(ctx, id))
			return 1;
		now = bpf_ktime_get_ns();
		s = session_start(session_key((__u32)pid_tgid), pid_tgid, now, &comm);
		if (!s)
			return 1;
	}

	if (interim_stacks && rs_chain_entry_replaces_failure(&s->chain))
		report_interim(s, now);
	if (!rs_chain_enter(&s->chain, id, now)) {
		__sync_fetch_and_add(&stats.depth_overflow, 1);
		return 0;
	}
	if (kstack_at_entry)
		take_entry_kstack(ctx, s, s->chain.depth - 1);
	if (capture_args)
		s->args_sent |= rs_capture_args(ctx, &rb, s->id, id, s->chain.next_seq - 1);
	if (emit_trace)
		emit_call_rec(s, id, s->chain.depth - 1, true, now, 0);
	return 0;
}

/* Function id's return in session s; lbr: the snapshot the exit program took first. */
static __always_inline int session_record_exit(void *ctx, struct session *s, __u32 id, __s64 res,
					       const struct lbr_snap *lbr)
{
	struct rs_func_desc *desc;
	bool failed;
	__u64 now;
	int steps;
	__u32 d;

	desc = bpf_map_lookup_elem(&func_descs, &id);
	if (!desc)
		return 0;
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
		return 0;
	}
	if (steps & RS_STEP_CAPTURE)
		capture_stacks(ctx, s, steps, lbr);
	d = s->chain.depth; /* rs_chain_exit() popped the returning call: its level */
	if (emit_trace && d < RS_MAX_DEPTH)
		emit_call_rec(s, id, d, false, s->chain.frames[d].dur_ns, res);
	if (steps & RS_STEP_CLOSE)
		session_end(s, now);
	return 0;
}

/*
 * Function id's return, recorded in the thread's session if it has one; lbr: the snapshot the
 * exit program took first (lbr_snapshot()).
 */
static __always_inline int on_func_exit(void *ctx, __u32 id, __s64 res, const struct lbr_snap *lbr)
{
	struct session *s = current_session_if_ready();

	return s ? session_record_exit(ctx, s, id, res, lbr) : 0;
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
