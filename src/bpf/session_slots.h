/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Where a thread's session lives in the sessions array map: open addressing on the thread's key,
 * so that finding it costs array lookups the verifier inlines (see the map in session_table.bpf.h).
 * Plain C, shared with user space, which sizes the map, and with the unit tests.
 */
#ifndef RETSNOOP_BPF_SESSION_SLOTS_H
#define RETSNOOP_BPF_SESSION_SLOTS_H

#include "abi.h"

/*
 * Slots a session may be placed and looked for past its home slot. Simulated with random TIDs:
 * with half of bpf.sessions-size open none is refused a slot; with all of them open, about one in
 * 20 is (counted as a session that could not start).
 */
#define RS_SESSION_PROBES 32

/* Slots of the sessions map beyond bpf.sessions-size. */
#define RS_SPARE_SESSIONS 64

/* The map's size for bpf.sessions-size sessions: room for them to find a slot near home. */
RS_INLINE rs_u32 rs_session_slots(rs_u32 sessions)
{
	return sessions + RS_SPARE_SESSIONS;
}

/*
 * Multiplicative hashing, then the product scaled to the map's size, which need not be a power
 * of two: consecutive TIDs land far apart, and no division is needed.
 */
RS_INLINE rs_u32 rs_session_home(rs_u32 key, rs_u32 slots)
{
	return (rs_u32)(((rs_u64)(rs_u32)(key * 0x9e3779b9U) * slots) >> 32);
}

/*
 * A remainder, not a compare: the verifier then sees one unknown slot per probe, where a branch
 * gives it a wrapped and an unwrapped one at every probe, whose combinations it walks through
 * all the probes after (tens of thousands of instructions for each program that opens sessions).
 */
RS_INLINE rs_u32 rs_session_next_slot(rs_u32 slot, rs_u32 slots)
{
	return (slot + 1) % slots;
}

/* A slot's owner word while its session is open: the thread's key | RS_SESSION_OPEN. */
#define RS_SESSION_OPEN (1ULL << 32)

/* The owner word of slot, NULL past the map: how the caller reads its sessions map. */
typedef rs_u64 *(*rs_session_owner_fn)(void *map, rs_u32 slot);

/*
 * Takes closed slot number slot, whose owner word is at owner and read seen, for key: nonzero
 * if it did, 0 if another thread took it first.
 */
typedef int (*rs_session_take_fn)(rs_u32 slot, rs_u64 *owner, rs_u64 seen, rs_u32 key);

/*
 * The taker where atomics return values (Linux 5.12+): compare-and-swap on the owner word, which
 * changes only so while the slot is closed, so two threads never take one slot; once open, only
 * its thread writes it.
 */
RS_INLINE int rs_session_take_cas(rs_u32 slot, rs_u64 *owner, rs_u64 seen, rs_u32 key)
{
	(void)slot;
	return __sync_val_compare_and_swap(owner, seen, key | RS_SESSION_OPEN) == seen;
}

/*
 * Takes for key the first slot near its home that is not open and returns its owner word (its
 * number in *taken), or NULL when the RS_SESSION_PROBES slots from home are all open. The BPF
 * programs pass a lookup and a taker that the compiler inlines.
 */
RS_INLINE rs_u64 *rs_session_claim(rs_u32 key, rs_u32 slots, void *map,
				   rs_session_owner_fn owner_of, rs_session_take_fn take,
				   rs_u32 *taken)
{
	rs_u32 slot = rs_session_home(key, slots);
	rs_u64 *owner, seen;

	for (int i = 0; i < RS_SESSION_PROBES; i++) {
		owner = owner_of(map, slot);
		if (!owner)
			return 0;
		seen = *owner;
		if (!(seen & RS_SESSION_OPEN) && take(slot, owner, seen, key)) {
			*taken = slot;
			return owner;
		}
		slot = rs_session_next_slot(slot, slots);
	}
	return 0;
}

#endif /* RETSNOOP_BPF_SESSION_SLOTS_H */
