/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The sessions map: which slot holds a thread's open session, how a slot is taken for a new one
 * and given back, and the ids sessions are reported under. BPF only. Every probe hit starts here,
 * so these are the lookups the tracing cost of a call outside any session comes down to.
 */
#ifndef RETSNOOP_BPF_SESSION_TABLE_BPF_H
#define RETSNOOP_BPF_SESSION_TABLE_BPF_H

#include "vmlinux_min.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include "abi.h"
#include "chain.h"
#include "session_slots.h"
#include "globals.bpf.h"

/*
 * The last session id given out and the sessions open now: both kept with atomics that return a
 * value (5.12). Before, ids come from cpu_session_counter and the slots alone bound the sessions.
 */
__u64 session_counter = 0;
__u32 open_sessions = 0;

struct session {
	__u64 owner;      /* session_key() | RS_SESSION_OPEN while open; see session_claim() */
	__u64 task_start; /* the thread's start_time: another thread may get its TID once it exits */
	__u32 slot;       /* its index in sessions, kept where slot_claims holds it (before 5.12) */
	__u32 pad0;
	__u64 id;         /* id of the final report; interim reports (-I) get their own */
	__u32 trace_cnt;  /* -T records sent */
	__u32 trace_lost; /* -T records that did not fit */
	bool kstack_err;
	bool ustack_err;
	/*
	 * -A records or kernel messages (messages.bpf.c) sent: user space frees them if the session
	 * is discarded.
	 */
	bool args_sent;
	__u8 pad;
	__u32 line_total;          /* --line-trace: line hits recorded (line_ring.bpf.h) */
	struct rs_session_rec rec; /* who and when, filled at open; the rest at each report */
	struct rs_chain chain;
	struct rs_part_hdr kstack_hdr;
	__u64 kstack[RS_MAX_KSTACK];
	struct rs_part_hdr lbr_hdr;
	struct rs_lbr_entry lbr[RS_MAX_LBR];
	struct rs_part_hdr ustack_hdr;
	__u64 ustack[RS_MAX_USTACK];
};

/*
 * Open addressing by thread in an array, whose lookups the verifier inlines: a hash map lookup
 * (jhash, a bucket walk, memcmp) cost as much as the rest of a probe hit's own work (about 120
 * instructions each, six per session). A thread's session takes the first slot not
 * open at or after its home slot, at most RS_SESSION_PROBES on (session_slots.h); a closed slot
 * is anybody's, its contents are only read as far as the session's counts say. open_sessions
 * keeps the open ones to bpf.sessions-size.
 */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1); /* created by user space at its size */
	__type(key, __u32);
	__type(value, struct session);
} sessions SEC(".maps");

/*
 * Bit TID % 64 of word TID / 64: set while the thread's session may be open, so that a hit
 * outside any session, the common case, costs an array lookup the verifier inlines instead of a
 * sessions map lookup, which hashes the TID. The session's own
 * owner word decides. The first cpu_bits bits are the idle tasks' (TID 0, one per CPU, which
 * never migrates), by CPU; the TIDs' follow, up to pid_max as user space sized the map. TIDs
 * beyond it (pid_max raised later) have no bit: they always look up, which misses only after
 * RS_SESSION_PROBES slots.
 */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1); /* resized to the CPUs' words and pid_max / 64 */
	__type(key, __u32);
	__type(value, __u64);
} session_bits SEC(".maps");

/*
 * Before 5.12 a slot cannot be taken by compare-and-swap: it is taken by inserting its index
 * here, which succeeds for one thread only, and given back by deleting it.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1); /* resized to the sessions map's size where used */
	__type(key, __u32);
	__type(value, __u32);
} slot_claims SEC(".maps");

/*
 * Before 5.12 session ids come from a counter per CPU (no atomic returns a value): the count
 * above the CPU number, unique without any CPU seeing another's.
 */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} cpu_session_counter SEC(".maps");

#define RS_ID_CPU_BITS 12

/* Idle tasks share TID 0 on every CPU: key them per CPU instead, above every TID (< 2^22). */
static __always_inline __u32 session_key(__u32 tid)
{
	if (tid)
		return tid;
	return (1U << 31) | bpf_get_smp_processor_id();
}

/* The thread's word of session_bits and its bit; NULL where it has none. */
static __always_inline __u64 *session_bit(__u32 tid, __u64 *bit)
{
	__u32 idx = tid ? cpu_bits + tid : bpf_get_smp_processor_id(), word;

	/* Threads sharing a word set and clear their bits at once: atomic or/and only (5.12). */
	if (!has_atomic_fetch)
		return NULL;
	word = idx / 64;
	*bit = 1ULL << (idx % 64);
	return bpf_map_lookup_elem(&session_bits, &word);
}

/* The open session of key, or NULL. */
static __always_inline struct session *session_find(__u32 key)
{
	__u32 slot = rs_session_home(key, session_slots);
	struct session *s;

	for (int i = 0; i < RS_SESSION_PROBES; i++) {
		s = bpf_map_lookup_elem(&sessions, &slot);
		if (!s)
			return NULL;
		if (s->owner == (key | RS_SESSION_OPEN))
			return s;
		slot = rs_session_next_slot(slot, session_slots);
	}
	return NULL;
}

static __always_inline __u64 *session_owner(void *map, __u32 slot)
{
	struct session *s = bpf_map_lookup_elem(map, &slot);

	return s ? &s->owner : NULL;
}

/* Before 5.12 (no compare-and-swap) a slot is taken by inserting its number into slot_claims. */
static __always_inline int slot_take(__u32 slot, __u64 *owner, __u64 seen, __u32 key)
{
	if (has_atomic_fetch)
		return rs_session_take_cas(slot, owner, seen, key);
	if (bpf_map_update_elem(&slot_claims, &slot, &key, BPF_NOEXIST))
		return 0;
	*owner = key | RS_SESSION_OPEN;
	return 1;
}

/* A slot near key's home taken for key (session_slots.h), or NULL. */
static __always_inline struct session *session_claim(__u32 key)
{
	struct session *s;
	__u32 slot = 0;

	_Static_assert(__builtin_offsetof(struct session, owner) == 0,
		       "a session starts with its owner");
	s = (struct session *)rs_session_claim(key, session_slots, &sessions, session_owner,
					       slot_take, &slot);
	if (s)
		s->slot = slot;
	return s;
}

/*
 * session_claim() as a global function, by slot (or -1): its search returns on many paths,
 * which the verifier would otherwise walk on to everything a new session does next.
 */
__noinline int rs_session_claim_slot(__u32 key)
{
	struct session *s = session_claim(key);

	return s ? (int)s->slot : -1;
}

/* The session in slot, NULL for -1. */
static __always_inline struct session *session_at(int slot)
{
	__u32 at = slot;

	return slot < 0 ? NULL : bpf_map_lookup_elem(&sessions, &at);
}

/* Tells the thread from an exited one that had its TID (struct session's task_start). */
static __always_inline __u64 current_start_time(void)
{
	if (has_task_btf)
		return bpf_get_current_task_btf()->start_time;
	return BPF_CORE_READ((struct task_struct *)bpf_get_current_task(), start_time);
}

/* The session is over, reported or not: its slot is free for any thread's next one. */
static __always_inline void session_release(struct session *s)
{
	__u64 *bits, bit;

	bits = session_bit(s->rec.tid, &bit);
	if (bits)
		__sync_fetch_and_and(bits, ~bit);
	if (!has_atomic_fetch) {
		__u32 slot = s->slot;

		s->owner = 0;
		bpf_map_delete_elem(&slot_claims, &slot);
		return;
	}
	__sync_fetch_and_add(&open_sessions, -1);
	/* Ordered after every write of the session: the next owner's are its own. */
	__sync_lock_test_and_set(&s->owner, 0);
}

static __always_inline __u64 next_session_id(void)
{
	__u32 zero = 0;
	__u64 *n;

	if (has_atomic_fetch)
		return __sync_fetch_and_add(&session_counter, 1) + 1;
	n = bpf_map_lookup_elem(&cpu_session_counter, &zero);
	if (!n)
		return 0;
	*n += 1;
	return (*n << RS_ID_CPU_BITS) | bpf_get_smp_processor_id();
}

#endif /* RETSNOOP_BPF_SESSION_TABLE_BPF_H */
