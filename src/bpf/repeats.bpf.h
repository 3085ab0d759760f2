/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * -C stacks.repeats=count: a session like one already reported in this interval is counted in
 * the repeats map instead of being sent, so that a flood of one failure costs a map update per
 * session rather than a report. BPF only.
 */
#ifndef RETSNOOP_BPF_REPEATS_BPF_H
#define RETSNOOP_BPF_REPEATS_BPF_H

#include "vmlinux_min.h"
#include <bpf/bpf_helpers.h>
#include "abi.h"
#include "repeat_key.h"
#include "globals.bpf.h"
#include "session_table.bpf.h"

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1); /* resized by user space when counting repeats */
	__type(key, struct rs_repeat_key);
	__type(value, struct rs_repeat);
} repeats SEC(".maps");

/* Names the task in a repeats entry unless it is named already or the entry is full. */
static __always_inline void repeat_add_task(struct rs_repeat *r, __u32 tid, __u32 pid)
{
	__u32 cnt = r->task_cnt;

	for (__u32 i = 0; i < RS_REPEAT_TASKS; i++) {
		if (i >= cnt)
			break;
		if (r->tids[i] == tid)
			return;
	}
	if (cnt >= RS_REPEAT_TASKS)
		return;
	r->tids[cnt] = tid;
	r->pids[cnt] = pid;
	r->task_cnt = cnt + 1;
}

/*
 * -C stacks.repeats=count, for a session about to be reported: the first of its kind in this
 * interval is sent in full (*flags gets RS_SESS_REPEAT_FIRST); a repeat is counted in its
 * entry instead, and true says it needs no report. A full map sends sessions in full.
 */
static __always_inline bool repeat_counted(struct session *s, __u64 now, __u32 *flags)
{
	struct rs_repeat_key key = {};
	struct rs_repeat first = { .first_id = s->id }, *r;

	if (!count_repeats)
		return false;
	key.hash = rs_repeat_key(&s->chain, s->kstack, s->rec.kstack_cnt);
	key.interval = repeat_interval;
	r = bpf_map_lookup_elem(&repeats, &key);
	if (!r) {
		if (!bpf_map_update_elem(&repeats, &key, &first, BPF_NOEXIST)) {
			*flags |= RS_SESS_REPEAT_FIRST;
			return false;
		}
		r = bpf_map_lookup_elem(&repeats, &key); /* another CPU inserted it first */
		if (!r)
			return false;
	}
	if (has_atomic_fetch) {
		if (__sync_fetch_and_add(&r->count, 1) == 0)
			r->first_ns = now;
	} else {
		__sync_fetch_and_add(&r->count, 1);
		if (!r->first_ns)
			r->first_ns = now;
	}
	r->last_ns = now;
	repeat_add_task(r, s->rec.tid, s->rec.pid);
	__sync_fetch_and_add(&stats.sessions_counted, 1);
	return true;
}

#endif /* RETSNOOP_BPF_REPEATS_BPF_H */
