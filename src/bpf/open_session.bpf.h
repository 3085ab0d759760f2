/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The current thread's open session, for objects that share the tracer's session maps and only
 * read them (messages.bpf.c, indirect.bpf.c).
 */
#ifndef RETSNOOP_BPF_OPEN_SESSION_BPF_H
#define RETSNOOP_BPF_OPEN_SESSION_BPF_H

#include "session_table.bpf.h"

/* Set by user space before load: the tracer keeps session_bits (its build with atomics). */
const volatile __u8 bits_kept = 1;

/*
 * The thread's open session, or NULL: the tracer's own lookup, read only. A stale session left
 * by an exited thread of the same TID is the tracer's to drop.
 */
static __always_inline struct session *open_session(void)
{
	__u32 tid = bpf_get_current_pid_tgid();
	__u64 *bits, bit;
	struct session *s;

	if (bits_kept) {
		bits = session_bit(tid, &bit);
		if (bits && !(*bits & bit))
			return NULL;
	}
	s = session_find(session_key(tid));
	if (!s || s->task_start != current_start_time())
		return NULL;
	return s;
}

#endif
