/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A session from start to end: current_session() finds the thread's open one; session_start()
 * opens one for an admitted entry call, through session_create(), which fills a claimed slot;
 * session_end() reports it, counts it as a repeat or discards it, and frees its slot. BPF only.
 */
#ifndef RETSNOOP_BPF_SESSION_LIFECYCLE_BPF_H
#define RETSNOOP_BPF_SESSION_LIFECYCLE_BPF_H

#include "vmlinux_min.h"
#include <bpf/bpf_helpers.h>
#include "abi.h"
#include "globals.bpf.h"
#include "session_table.bpf.h"
#include "admission.bpf.h"
#include "report.bpf.h"
#include "repeats.bpf.h"

/*
 * The thread's open session, or NULL. A thread that exits inside a session (in exit_group(),
 * say) leaves it open under its TID: the next thread given that TID drops it here, or it would
 * record inside it and never see a session of its own.
 */
static __always_inline struct session *current_session(void)
{
	__u32 tid = bpf_get_current_pid_tgid();
	__u64 *bits, bit;
	struct session *s;

	bits = session_bit(tid, &bit);
	if (bits && !(*bits & bit))
		return NULL;
	s = session_find(session_key(tid));
	if (!s || s->task_start == current_start_time())
		return s;
	session_discard(s);
	session_release(s);
	return NULL;
}

/*
 * current_session() for the exit programs, NULL until every probe is attached, as the entry
 * programs open nothing before: for most returns of non-entry functions the thread's session
 * bit is all they look up.
 */
static __always_inline struct session *current_session_if_ready(void)
{
	return ready ? current_session() : NULL;
}

/* A session that can't open gives its place back and counts as one the map had no room for. */
static __always_inline struct session *session_refused(void)
{
	if (has_atomic_fetch)
		__sync_fetch_and_add(&open_sessions, -1);
	__sync_fetch_and_add(&stats.sessions_nomem, 1);
	return NULL;
}

/*
 * A new session for key in a slot it claims, not yet flagged in session_bits: session_start()
 * does that once it exists. The slot taken keeps what an earlier session left: everything up to
 * the chain's arrays is cleared, the arrays are only read as far as their counts say. The owner
 * word stays: it is what makes the slot this thread's.
 */
static __always_inline struct session *session_create(__u32 key, __u64 pid_tgid, __u64 now,
						      const struct task_comm *comm)
{
	__u32 pid = pid_tgid >> 32;
	struct session *s;

	/* Before 5.12 the slots alone bound the open sessions: nothing counts them. */
	if (has_atomic_fetch && __sync_fetch_and_add(&open_sessions, 1) >= max_sessions)
		return session_refused();
	s = session_at(rs_session_claim_slot(key));
	if (!s)
		return session_refused();
	__builtin_memset(&s->id, 0,
			 offsetof(struct session, chain.frames_hdr) - offsetof(struct session, id));
	s->id = next_session_id();
	s->rec.pid = pid;
	s->rec.tid = (__u32)pid_tgid;
	s->rec.start_ns = now;
	s->task_start = current_start_time();
	__builtin_memcpy(s->rec.task_comm, comm->w, sizeof(comm->w));
	if (has_task_btf)
		read_comm((struct task_comm *)s->rec.proc_comm,
			  bpf_get_current_task_btf()->group_leader);
	else
		read_current_comm((struct task_comm *)s->rec.proc_comm, true);
	if (capture_ustack)
		announce_process(pid, s->id);
	return s;
}

/*
 * Opens the thread's session (it has none open): created, then flagged in session_bits, without
 * which current_session() would not look for it.
 */
static __always_inline struct session *session_start(__u32 key, __u64 pid_tgid, __u64 now,
						     const struct task_comm *comm)
{
	struct session *s;
	__u64 *bits, bit;

	s = session_create(key, pid_tgid, now, comm);
	bits = session_bit((__u32)pid_tgid, &bit);
	if (s && bits)
		__sync_fetch_and_or(bits, bit);
	return s;
}

/* The entry call returned: whatever becomes of the session, its slot is free for the next one. */
static __always_inline void session_end(struct session *s, __u64 now)
{
	__u32 flags = 0;

	if (!session_reportable(s) || repeat_counted(s, now, &flags))
		session_discard(s);
	else
		session_report(s, s->id, flags, now);
	session_release(s);
}

#endif /* RETSNOOP_BPF_SESSION_LIFECYCLE_BPF_H */
