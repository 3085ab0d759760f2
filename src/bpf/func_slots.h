/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Function start address -> function id, for probes whose attach cookie is missing or slow: kprobe
 * events in tracefs (one event holds many probes) and kprobe session entries (the attach cookie
 * is a binary search through the link's addresses). An open-addressing table in an array map,
 * whose lookups the verifier inlines: a multiplication and a few loads, where a hash map lookup
 * runs jhash and memcmp. User space places every address at most RS_FUNC_SLOT_PROBES slots past
 * its home slot (attach/func_slot_table.h). Plain C, shared with user space and the unit tests.
 */
#ifndef RETSNOOP_BPF_FUNC_SLOTS_H
#define RETSNOOP_BPF_FUNC_SLOTS_H

#include "abi.h"

#define RS_FUNC_SLOT_PROBES 8
#define RS_FUNC_SLOT_NONE 0xffffffffu /* the id of an address whose hits are ignored */

/* An empty slot has addr 0. */
struct rs_func_slot {
	rs_u64 addr;
	rs_u32 id;
	rs_u32 pad;
};

/*
 * mask: the table's size, a power of two, minus one. Multiplicative hashing: the product's
 * upper half depends on every bit of the address, functions a few bytes apart included.
 */
RS_INLINE rs_u32 rs_func_slot_home(rs_u64 addr, rs_u32 mask)
{
	return (rs_u32)((addr * 0x9e3779b97f4a7c15ULL) >> 32) & mask;
}

#endif /* RETSNOOP_BPF_FUNC_SLOTS_H */
