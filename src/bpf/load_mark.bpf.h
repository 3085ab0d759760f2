/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A 64-bit constant that user space replaces in each copy of a program template (RS_FUNC_MARK,
 * RS_PROBE_ID_MARK, RS_INDIRECT_MARK): what a cookie would carry, for kernels without cookies.
 */
#ifndef RETSNOOP_BPF_LOAD_MARK_BPF_H
#define RETSNOOP_BPF_LOAD_MARK_BPF_H

/* An opaque load, so the compiler keeps the mark as one patchable instruction. */
#define load_mark(mark)                                                 \
	({                                                              \
		__u64 __value;                                          \
		asm volatile("%0 = %1 ll" : "=r"(__value) : "i"(mark)); \
		__value;                                                \
	})

#endif /* RETSNOOP_BPF_LOAD_MARK_BPF_H */
