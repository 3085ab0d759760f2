/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What user space receives when a session ends or is cut short: its parts and header (with the
 * --line-trace hits of line_ring.bpf.h), the discard notice for the -T and -A records it holds, and
 * the announcement of a process whose memory map -U needs. BPF only.
 */
#ifndef RETSNOOP_BPF_REPORT_BPF_H
#define RETSNOOP_BPF_REPORT_BPF_H

#include "vmlinux_min.h"
#include <bpf/bpf_helpers.h>
#include "abi.h"
#include "chain.h"
#include "globals.bpf.h"
#include "session_table.bpf.h"

/*
 * -U: processes whose memory map user space was told to read (struct rs_proc_rec) since their
 * last exec, by PID, with the start time of the process that had it then: a process that took a
 * PID still listed is announced too.
 */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 8192);
	__type(key, __u32);
	__type(value, __u64);
} procs_seen SEC(".maps");

/* Its leader's: a thread started later, or one that exec'd (which takes the leader's), agrees. */
static __always_inline __u64 current_process_start(void)
{
	struct task_struct *task = (struct task_struct *)bpf_get_current_task();

	return BPF_CORE_READ(task, group_leader, start_time);
}

/* Woken up at once: the process may exit soon after its failing call. */
static __always_inline void announce_process(__u32 pid, __u64 session_id)
{
	struct rs_proc_rec r = { .type = RS_REC_PROC, .pid = pid, .session_id = session_id };
	__u64 start = current_process_start();
	__u64 *seen;

	if (!pid)
		return;
	seen = bpf_map_lookup_elem(&procs_seen, &pid);
	if (seen) {
		if (*seen == start)
			return;
		bpf_map_delete_elem(&procs_seen, &pid);
	}
	/* Two threads opening their first sessions at once: one announces. */
	if (bpf_map_update_elem(&procs_seen, &pid, &start, BPF_NOEXIST))
		return;
	bpf_ringbuf_output(&rb, &r, sizeof(r), BPF_RB_FORCE_WAKEUP);
}

/*
 * Parts never wake the consumer: their session's header follows. A header wakes it only while
 * it waits in poll and once a batch worth waking for has piled up; user space polls every
 * 100 ms anyway (see RingbufReader), so a lone session waits no longer than that. A wake-up
 * costs an irq_work on the traced CPU, and a reader that is still busy with earlier records
 * gains nothing from one: under a flood it would be one per session.
 * The flag is cleared here so that the headers sent before the woken reader runs again don't
 * each wake it too. Racing with the reader's own update can only cost one wake-up or delay
 * one by the poll period.
 */
static __always_inline __u64 header_wakeup(void)
{
	if (!reader_waiting || !rb_batch_waits())
		return BPF_RB_NO_WAKEUP;
	reader_waiting = false;
	return BPF_RB_FORCE_WAKEUP;
}

static __always_inline bool output_part(struct rs_part_hdr *hdr, __u32 type, __u32 cnt,
					__u32 max_cnt, __u32 elem_size, __u64 session_id)
{
	if (cnt > max_cnt)
		cnt = max_cnt;
	hdr->type = type;
	hdr->cnt = cnt;
	hdr->session_id = session_id;
	return bpf_ringbuf_output(&rb, hdr, sizeof(*hdr) + cnt * elem_size, BPF_RB_NO_WAKEUP) == 0;
}

/* Here, after output_part(): the --line-trace hits are sent as a part of the report. */
#include "line_ring.bpf.h"

/*
 * Sends the chain of interest, the stitched chain below it and the captured stacks as session
 * id: parts first, the header last. -T records are sent once, under s->id; an interim report
 * (-I) counts those sent so far, which user space shows with it and keeps for the final one.
 */
static __always_inline void session_report(struct session *s, __u64 id, __u32 flags, __u64 now)
{
	struct rs_chain *c = &s->chain;
	bool ok = true;

	__sync_fetch_and_add(&stats.sessions_reported, 1);
	s->rec.type = RS_REC_SESSION;
	s->rec.session_id = id;
	s->rec.end_ns = now;
	s->rec.flags = flags | (c->is_err ? RS_SESS_ERROR : 0) |
		       (s->kstack_err ? RS_SESS_KSTACK_ERR : 0) |
		       (s->ustack_err ? RS_SESS_USTACK_ERR : 0);
	s->rec.depth = c->max_depth;
	s->rec.saved_depth = rs_chain_stitched_depth(c);
	s->rec.running = c->depth;
	s->rec.trace_id = s->id;
	s->rec.trace_cnt = s->trace_cnt;
	s->rec.trace_lost = s->trace_lost;
	ok &= output_part(&c->frames_hdr, RS_REC_FRAMES, s->rec.depth, RS_MAX_DEPTH,
			  sizeof(struct rs_frame), id);
	if (s->rec.saved_depth)
		ok &= output_part(&c->saved_hdr, RS_REC_SAVED, s->rec.saved_depth, RS_MAX_DEPTH,
				  sizeof(struct rs_frame), id);
	ok &= output_part(&s->kstack_hdr, RS_REC_KSTACK, s->rec.kstack_cnt, RS_MAX_KSTACK,
			  sizeof(__u64), id);
	if (s->rec.ustack_cnt)
		ok &= output_part(&s->ustack_hdr, RS_REC_USTACK, s->rec.ustack_cnt, RS_MAX_USTACK,
				  sizeof(__u64), id);
	if (s->rec.lbr_cnt)
		ok &= output_part(&s->lbr_hdr, RS_REC_LBR, s->rec.lbr_cnt, RS_MAX_LBR,
				  sizeof(struct rs_lbr_entry), id);
	ok &= line_report(s, id);
	if (!ok)
		s->rec.flags |= RS_SESS_PART_LOST;
	if (bpf_ringbuf_output(&rb, &s->rec, sizeof(s->rec), header_wakeup()))
		__sync_fetch_and_add(&stats.sessions_dropped, 1);
}

/*
 * -I: the failing chain is about to be overwritten by a new call or cleared by a successful
 * return; report it now under a session id of its own. -L does not apply: the entry call is
 * still running.
 */
static __always_inline void report_interim(struct session *s, __u64 now)
{
	session_report(s, next_session_id(), RS_SESS_INTERIM, now);
}

/* With -T or -A, user space holds a session's records until its header arrives. */
static __always_inline void session_discard(struct session *s)
{
	if (!(emit_trace && s->trace_cnt) && !s->args_sent)
		return;
	s->rec.type = RS_REC_SESSION;
	s->rec.session_id = s->id;
	s->rec.flags = RS_SESS_DISCARD;
	bpf_ringbuf_output(&rb, &s->rec, sizeof(s->rec), BPF_RB_NO_WAKEUP);
}

static __always_inline bool session_reportable(struct session *s)
{
	if (!s->chain.is_err && !success_stacks)
		return false;
	return s->chain.frames[0].dur_ns >= min_duration_ns;
}

#endif /* RETSNOOP_BPF_REPORT_BPF_H */
