/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * -A: captures a traced call's arguments at its entry into one struct rs_args_rec, as the
 * function's struct rs_func_args (filled by user space from BTF) says, and sends it to the ring
 * buffer. Without -A, capture_args is false at load time and the verifier drops every path
 * that leads here.
 */
#ifndef RETSNOOP_BPF_ARG_CAPTURE_H
#define RETSNOOP_BPF_ARG_CAPTURE_H

#include "vmlinux_min.h"
#include <bpf/bpf_helpers.h>
#include "abi.h"
#include "arg_regs.bpf.h"

/* Set by user space before load; flags are __u8 as in globals.bpf.h. */
const volatile __u8 capture_args = 0;       /* -A */
const volatile __u8 args_fentry_ctx = 0;    /* the entry program is fentry: no pt_regs */
const volatile __u8 args_ctx_words = 0;     /* fentry without bpf_get_func_arg() (5.17) */
const volatile __u32 args_max_total = 3072; /* args.max-total-args-size */
const volatile __u32 args_max_sized = 256;  /* args.max-sized-arg-size */
const volatile __u32 args_max_str = 256;    /* args.max-str-arg-size */

/*
 * One call's record under construction: far too large for the BPF stack, and for a
 * PERCPU_ARRAY value (32 KiB at most), so one ARRAY entry per possible CPU, indexed by the CPU
 * the program runs on (migration is disabled while it runs; an fentry program nesting on the same
 * CPU from an interrupt can overwrite a record being built; kprobe programs never nest). data
 * has room for a masked offset (below RS_MAX_ARGS_DATA) plus a masked length (below
 * 2 * RS_MAX_ARG_DATA), which is all the verifier can prove of them.
 */
struct args_buf {
	/*
	 * Data bytes used so far. Kept here, not in a register: the verifier then sees the same
	 * unknown value at every argument, whichever way the previous ones went, and prunes their
	 * paths instead of multiplying them.
	 */
	__u32 end;
	__u32 pad;
	struct rs_args_rec rec;
	__u8 data[RS_MAX_ARGS_DATA + 2 * RS_MAX_ARG_DATA];
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1); /* resized to the possible CPUs with -A */
	__type(key, __u32);
	__type(value, struct args_buf);
} args_bufs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1); /* resized to the number of functions with -A */
	__type(key, __u32);
	__type(value, struct rs_func_args);
} func_args SEC(".maps");

/* -J: what each probe's hits capture, indexed by probe id. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1); /* resized to the number of probes with -A */
	__type(key, __u32);
	__type(value, struct rs_func_args);
} probe_args SEC(".maps");

/* Where the register slots of a capture come from. */
enum slot_source {
	SLOTS_CALL,  /* a traced function's entry: kprobe registers or the fentry context */
	SLOTS_ARRAY, /* a raw tracepoint: its context is an array of its arguments */
	SLOTS_CTX, /* an injected kprobe: the context is the registers, its address the one slot */
	SLOTS_RECORD, /* a classic tracepoint: the context is its record, its address the one slot */
};

/*
 * fentry: bpf_get_func_arg() refuses, at run time, slots past the function's argument count;
 * they stay 0. Its context holds the stack-passed arguments after the registers already; a
 * kprobe reads the stack_slots of them the plan asks for. A raw tracepoint's array is read with
 * a helper, as the kernel refuses to attach a program that accesses the context directly past
 * the tracepoint's argument count; so is fentry's before bpf_get_func_arg(), where the slots
 * past the arguments hold the rest of the trampoline's frame, which no plan reads.
 */
static __always_inline void read_own_slots(void *ctx, __u64 *slots, enum slot_source src,
					   __u32 stack_slots)
{
	int i;

	if (src == SLOTS_ARRAY || (src == SLOTS_CALL && args_ctx_words)) {
		bpf_probe_read_kernel(slots, sizeof(__u64) * RS_MAX_ARG_SLOTS, ctx);
		return;
	}
	if (src == SLOTS_CTX || src == SLOTS_RECORD) {
		slots[0] = (__u64)ctx;
		return;
	}
	if (!args_fentry_ctx) {
		rs_read_reg_slots(ctx, slots);
		rs_read_stack_slots(ctx, slots, stack_slots);
		return;
	}
#pragma clang loop unroll(full)
	for (i = 0; i < RS_MAX_ARG_SLOTS; i++)
		if (bpf_get_func_arg(ctx, i, &slots[i]))
			break;
}

/*
 * The slots a plan reads: the probe's own, or (RS_SLOTS_SYSCALL_REGS, a system call's wrapper)
 * the system call's arguments in the saved registers its first argument points to. Slots past
 * those arguments are zeroed: nothing in the plan reads them.
 */
static __always_inline void read_arg_slots(void *ctx, __u64 *slots, enum slot_source src,
					   __u32 stack_slots, __u32 slots_from)
{
	const struct pt_regs *regs;
	int i;

	if (src != SLOTS_CALL || slots_from != RS_SLOTS_SYSCALL_REGS) {
		read_own_slots(ctx, slots, src, stack_slots);
		return;
	}
	read_own_slots(ctx, slots, src, 0);
	regs = (const struct pt_regs *)slots[0];
	rs_read_syscall_slots(regs, slots);
#pragma clang loop unroll(full)
	for (i = 6; i < RS_MAX_ARG_SLOTS; i++)
		slots[i] = 0;
}

/* Kernel addresses have the top bit set on x86-64 and arm64 alike. */
static __always_inline bool arg_is_user(const struct rs_arg_spec *spec, __u64 addr)
{
	if (spec->flags & RS_ARG_USER)
		return true;
	return !(spec->flags & RS_ARG_KERNEL) && (__s64)addr >= 0;
}

/*
 * A __data_loc field of the tracepoint record at rec: the locator gives where its bytes are, read
 * as they are (a string's length counts its NUL). Returns the bytes it took, or RS_ARG_ERR_*.
 */
static __always_inline __s32 read_data_loc(__u8 *dst, __u32 room, const struct rs_arg_spec *spec,
					   __u64 rec)
{
	__u32 loc, len;

	if (bpf_probe_read_kernel(&loc, sizeof(loc), (void *)(rec + spec->size)))
		return RS_ARG_ERR_FAULT;
	len = loc >> 16;
	loc &= 0xffff;
	if (spec->flags & RS_ARG_REL_LOC)
		loc += spec->size + sizeof(loc);
	len = len < args_max_str ? len : args_max_str;
	len = len < room ? len : room;
	len &= 2 * RS_MAX_ARG_DATA - 1;
	return bpf_probe_read_kernel(dst, len, (void *)(rec + loc)) ? RS_ARG_ERR_FAULT : len;
}

/*
 * Reads one argument's data to data[off]: returns the bytes it took, or RS_ARG_ERR_*. Only a
 * classic tracepoint (src SLOTS_RECORD) has __data_loc fields: the other programs leave them out.
 */
static __always_inline __s32 read_arg_data(__u8 *data, __u32 off, const struct rs_arg_spec *spec,
					   __u64 addr, enum slot_source src)
{
	__u32 room = off < args_max_total ? args_max_total - off : 0;
	bool user = arg_is_user(spec, addr);
	__u8 *dst = data + (off & (RS_MAX_ARGS_DATA - 1));
	__u32 len;
	long n;

	if (!addr)
		return 0; /* NULL: nothing to read, and no fault to report */
	if (!room)
		return RS_ARG_ERR_BUDGET;
	if (src == SLOTS_RECORD && spec->kind == RS_ARG_DATA_LOC)
		return read_data_loc(dst, room, spec, addr);
	if (spec->kind == RS_ARG_STR) {
		len = args_max_str < room ? args_max_str : room;
		len &= 2 * RS_MAX_ARG_DATA - 1;
		n = user ? bpf_probe_read_user_str(dst, len, (void *)addr)
			 : bpf_probe_read_kernel_str(dst, len, (void *)addr);
		if (n < 0)
			return RS_ARG_ERR_FAULT;
		/*
		 * The helpers always end with a NUL, also when they cut the string: one that filled
		 * the buffer is sent without it, which marks it as possibly longer.
		 */
		return n == len ? n - 1 : n;
	}
	/* A pointee larger than what is left is read in part: the renderer marks it truncated. */
	len = spec->size < args_max_sized ? spec->size : args_max_sized;
	len = len < room ? len : room;
	len &= 2 * RS_MAX_ARG_DATA - 1;
	n = user ? bpf_probe_read_user(dst, len, (void *)addr)
		 : bpf_probe_read_kernel(dst, len, (void *)addr);
	return n < 0 ? RS_ARG_ERR_FAULT : len;
}

/*
 * Argument i (below RS_MAX_ARG_SLOTS). No subprogram (a bpf_loop() callback would be one):
 * the fentry attacher loads copies of the entry program without BTF func_info, which the
 * kernel requires of programs with subprograms.
 */
static __always_inline void capture_one_arg(struct args_buf *b, const struct rs_arg_spec *spec,
					    __u32 i, enum slot_source src)
{
	__u32 off = (*(volatile __u32 *)&b->end + 7) & ~7u;
	__s32 n;

	if (spec->kind == RS_ARG_REG)
		return;
	n = read_arg_data(b->data, off, spec, b->rec.slots[spec->slot & (RS_MAX_ARG_SLOTS - 1)],
			  src);
	b->rec.lens[i] = n;
	if (n > 0)
		*(volatile __u32 *)&b->end = off + n;
}

/* Like the -T records, argument records leave the last quarter of the ring buffer to headers. */
static __always_inline bool args_rec_fits(void *ringbuf, __u64 size)
{
	__u64 limit = bpf_ringbuf_query(ringbuf, BPF_RB_RING_SIZE) / 4 * 3;

	return bpf_ringbuf_query(ringbuf, BPF_RB_AVAIL_DATA) + size <= limit;
}

/*
 * Sends the arguments fa describes under session session_id: rec_id and seq go to the record's
 * func_id and call_seq. True when the record went out.
 */
static __always_inline bool send_args(void *ctx, void *ringbuf, const struct rs_func_args *fa,
				      __u64 session_id, __u32 rec_id, __u32 seq,
				      enum slot_source src)
{
	__u32 cpu = bpf_get_smp_processor_id();
	struct args_buf *b = bpf_map_lookup_elem(&args_bufs, &cpu);
	__u64 size;
	__u32 i, len;

	if (!b)
		return false;
	__builtin_memset(&b->rec, 0, sizeof(b->rec));
	b->rec.type = RS_REC_ARGS;
	b->rec.func_id = rec_id;
	b->rec.session_id = session_id;
	b->rec.call_seq = seq;
	read_arg_slots(ctx, b->rec.slots, src, fa->stack_slots, fa->slots_from);
	b->end = 0;
	for (i = 0; i < RS_MAX_ARG_SLOTS && i < fa->cnt; i++)
		capture_one_arg(b, &fa->args[i], i, src);
	len = b->end;
	if (len > RS_MAX_ARGS_DATA)
		len = RS_MAX_ARGS_DATA;
	b->rec.data_len = len;
	size = sizeof(b->rec) + len;
	if (!args_rec_fits(ringbuf, size))
		return false;
	/* Like a session's other parts, it wakes no consumer: user space collects it with its session. */
	return bpf_ringbuf_output(ringbuf, &b->rec, size, BPF_RB_NO_WAKEUP) == 0;
}

/* Sends the arguments of call call_seq of session session_id; true when the record went out. */
static __always_inline bool rs_capture_args(void *ctx, void *ringbuf, __u64 session_id,
					    __u32 func_id, __u32 call_seq)
{
	struct rs_func_args *fa = bpf_map_lookup_elem(&func_args, &func_id);

	return fa && send_args(ctx, ringbuf, fa, session_id, func_id, call_seq, SLOTS_CALL);
}

/* Sends the context of a probe hit, tied to its -T record seq; true when sent. */
static __always_inline bool rs_capture_probe_args(void *ctx, void *ringbuf, __u64 session_id,
						  __u32 probe_id, __u32 seq, enum slot_source src)
{
	struct rs_func_args *fa = bpf_map_lookup_elem(&probe_args, &probe_id);

	return fa && fa->cnt &&
	       send_args(ctx, ringbuf, fa, session_id, probe_id | RS_ARGS_PROBE, seq, src);
}

#endif /* RETSNOOP_BPF_ARG_CAPTURE_H */
