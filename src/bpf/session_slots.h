/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Where a thread's session lives in the sessions array map: open addressing on the thread's key,
 * so that finding it costs array lookups the verifier inlines (see the map in tracer.bpf.c).
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

RS_INLINE rs_u32 rs_session_next_slot(rs_u32 slot, rs_u32 slots)
{
	return slot + 1 < slots ? slot + 1 : 0;
}

#endif /* RETSNOOP_BPF_SESSION_SLOTS_H */
