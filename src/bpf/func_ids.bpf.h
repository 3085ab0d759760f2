/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * How a hit learns which traced function it is in: the descriptors user space fills by function
 * id, and for attach mechanisms without a usable cookie the address -> id table (func_slots.h)
 * and the probed address, which before 5.15 only the running kprobe knows. BPF only.
 */
#ifndef RETSNOOP_BPF_FUNC_IDS_BPF_H
#define RETSNOOP_BPF_FUNC_IDS_BPF_H

#include "vmlinux_min.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include "abi.h"
#include "func_slots.h"
#include "globals.bpf.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1); /* resized to the number of functions */
	__type(key, __u32);
	__type(value, struct rs_func_desc);
} func_descs SEC(".maps");

/* Function start address -> function id: see func_slots.h. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1); /* resized to the table user space built, when used */
	__type(key, __u32);
	__type(value, struct rs_func_slot);
} func_slots SEC(".maps");

/*
 * bpf_get_func_ip() names the function (its start, past any endbr64) for kprobe events' entry
 * and return probes and for multi-kprobes alike. An address missing from the table is not ours:
 * ignore the hit.
 */
static __always_inline __s64 func_id_of_ip(__u64 ip)
{
	__u32 home = rs_func_slot_home(ip, func_slot_mask), k;
	struct rs_func_slot *slot;

	for (__u32 i = 0; i < RS_FUNC_SLOT_PROBES; i++) {
		k = (home + i) & func_slot_mask;
		slot = bpf_map_lookup_elem(&func_slots, &k);
		if (!slot || !slot->addr)
			return -1;
		if (slot->addr == ip)
			return slot->id == RS_FUNC_SLOT_NONE ? -1 : slot->id;
	}
	return -1;
}

/*
 * Before 5.15 there is no bpf_get_func_ip(): the kprobe running on this CPU, which a kretprobe's
 * handler runs under too, holds the probed address. Its per-CPU variable is found through
 * kallsyms (the BTF of such kernels may not describe per-CPU variables).
 */
static __always_inline struct kprobe *running_kprobe(void)
{
	__u64 cpu = bpf_get_smp_processor_id(), offset = 0;
	struct kprobe *kp = NULL;

	bpf_probe_read_kernel(&offset, sizeof(offset), (void *)(per_cpu_offset_addr + cpu * 8));
	bpf_probe_read_kernel(&kp, sizeof(kp), (void *)(current_kprobe_addr + offset));
	return kp;
}

static __always_inline __u64 probed_func_ip(void *ctx)
{
	if (has_func_ip)
		return bpf_get_func_ip(ctx);
	return (__u64)BPF_CORE_READ(running_kprobe(), addr);
}

/* Whether function id opens sessions. */
static __always_inline bool is_entry_func_id(__u32 id)
{
	struct rs_func_desc *desc = bpf_map_lookup_elem(&func_descs, &id);

	return desc && (desc->flags & RS_FUNC_ENTRY);
}

/* Whether function id is a user-space one. */
static __always_inline bool is_user_func_id(__u32 id)
{
	struct rs_func_desc *desc = bpf_map_lookup_elem(&func_descs, &id);

	return desc && (desc->flags & RS_FUNC_USER);
}

#endif /* RETSNOOP_BPF_FUNC_IDS_BPF_H */
