/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * --line-trace: the line probes' hits of each session, kept in a ring per session slot and sent
 * with the session's report. BPF only; included by report.bpf.h after output_part(), which sends
 * the hits as a part of the report.
 * Without the option the knob is false at load, the map keeps one entry and the verifier drops
 * the code.
 */
#ifndef RETSNOOP_BPF_LINE_RING_H
#define RETSNOOP_BPF_LINE_RING_H

#include "vmlinux_min.h"
#include <bpf/bpf_helpers.h>
#include "abi.h"

/* Set by user space before load; flags are __u8 as in globals.bpf.h. */
const volatile __u8 trace_lines = 0; /* --line-trace */
const volatile __u32 line_max = 1;   /* -C lines.max-count, at most RS_MAX_LINES */

/* By session slot: a session reads only the hits it recorded (line_total). */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1); /* resized to the sessions map's size with --line-trace */
	__type(key, __u32);
	__type(value, struct rs_line_ring);
} line_rings SEC(".maps");

/* The innermost traced call running: the one the line belongs to, or its caller's. */
static __always_inline __u32 running_call_seq(const struct rs_chain *c)
{
	__u32 d = c->depth;

	if (d == 0 || d > RS_MAX_DEPTH)
		return 0;
	return c->frames[(d - 1) & (RS_MAX_DEPTH - 1)].seq;
}

static __always_inline void line_record(struct session *s, __u32 line_id)
{
	struct rs_line_ring *ring;
	__u32 slot = s->slot, at;

	ring = bpf_map_lookup_elem(&line_rings, &slot);
	if (!ring)
		return;
	at = (s->line_total % line_max) & (RS_MAX_LINES - 1);
	ring->hits[at].line_id = line_id;
	ring->hits[at].call_seq = running_call_seq(&s->chain);
	ring->hits[at].trace_seq = s->trace_cnt + s->trace_lost;
	s->line_total++;
}

/* Part of the session's report: the kept hits, in ring order. */
static __always_inline bool line_report(struct session *s, __u64 id)
{
	struct rs_line_ring *ring;
	__u32 slot = s->slot, cnt;

	s->rec.line_total = s->line_total;
	if (!trace_lines || !s->line_total)
		return true;
	ring = bpf_map_lookup_elem(&line_rings, &slot);
	if (!ring)
		return false;
	cnt = s->line_total < line_max ? s->line_total : line_max;
	return output_part(&ring->hdr, RS_REC_LINES, cnt, RS_MAX_LINES, sizeof(struct rs_line_hit),
			   id);
}

#endif /* RETSNOOP_BPF_LINE_RING_H */
