/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * --arg-filter: runs an entry function's filter program (struct rs_arg_filter, compiled by user
 * space from the expression and the function's BTF prototype) over the call's argument slots.
 * Plain C with no BPF helpers, so tracer.bpf.c and the unit tests run the very same
 * interpreter; the includer defines how memory is read:
 *   RS_FILTER_READ(dst, size, addr, user)      size (1..8) bytes at addr; 0 on success
 *   RS_FILTER_READ_STR(dst, size, addr, user)  a string of at most size bytes, NUL included;
 *                                              its length (> 0) on success
 */
#ifndef RETSNOOP_BPF_ARG_FILTER_H
#define RETSNOOP_BPF_ARG_FILTER_H

#include "abi.h"

/*
 * The interpreter's state, in a map value rather than registers: the verifier then sees the
 * same unknown stack depth and program counter at every step, whatever the previous
 * instructions did, and checks each step once per iteration instead of once per path.
 */
struct rs_filter_scratch {
	rs_u32 pc;
	rs_u32 sp; /* values on the stack */
	rs_u64 val;
	rs_u64 stack[RS_FILTER_MAX_STACK];
	rs_u64 str[RS_FILTER_STR_WORDS];
};

#define RS_FILTER_PC(sc) (*(volatile rs_u32 *)&(sc)->pc)
#define RS_FILTER_SP(sc) (*(volatile rs_u32 *)&(sc)->sp)

/* Kernel addresses have the top bit set on x86-64 and arm64 alike. */
RS_INLINE bool rs_filter_user_addr(rs_u8 flags, rs_u64 addr)
{
	if (flags & RS_FFL_USER)
		return true;
	return !(flags & RS_FFL_KERNEL) && (rs_s64)addr >= 0;
}

RS_INLINE rs_u64 rs_filter_compare(rs_u8 how, rs_u64 a, rs_u64 b)
{
	bool sgn = how & RS_FCMP_SIGNED;

	switch (how & 7) {
	case RS_FCMP_EQ:
		return a == b;
	case RS_FCMP_NE:
		return a != b;
	case RS_FCMP_LT:
		return sgn ? (rs_s64)a < (rs_s64)b : a < b;
	case RS_FCMP_LE:
		return sgn ? (rs_s64)a <= (rs_s64)b : a <= b;
	case RS_FCMP_GT:
		return sgn ? (rs_s64)a > (rs_s64)b : a > b;
	case RS_FCMP_GE:
		return sgn ? (rs_s64)a >= (rs_s64)b : a >= b;
	}
	return 0;
}

/* The string read into sc->str (zero past its NUL) against a constant. */
RS_INLINE rs_u64 rs_filter_str_match(const struct rs_filter_str *pat,
				     const struct rs_filter_scratch *sc)
{
	rs_u64 diff = 0;
	rs_u32 i;

	for (i = 0; i < RS_FILTER_STR_WORDS; i++)
		diff |= (sc->str[i] & pat->mask[i]) ^ pat->bytes[i];
	return diff == 0;
}

/* Sign-extends the low size bytes of v. */
RS_INLINE rs_u64 rs_filter_sext(rs_u64 v, rs_u32 size)
{
	rs_u32 shift = (64 - 8 * size) & 63;

	return (rs_u64)((rs_s64)(v << shift) >> shift);
}

/* Replaces the address on top of the stack with the string match; false if the read failed. */
RS_INLINE bool rs_filter_str_op(const struct rs_arg_filter *f, const struct rs_filter_insn *in,
				struct rs_filter_scratch *sc, rs_u64 *top)
{
	rs_u64 addr = *top;
	rs_u32 i;

	if (!addr) {
		*top = 0; /* NULL matches no string */
		return true;
	}
	for (i = 0; i < RS_FILTER_STR_WORDS; i++)
		sc->str[i] = 0;
	if (RS_FILTER_READ_STR(sc->str, sizeof(sc->str), addr,
			       rs_filter_user_addr(in->flags, addr)) <= 0)
		return false;
	*top = rs_filter_str_match(&f->strs[in->imm & (RS_FILTER_MAX_STRS - 1)], sc);
	return true;
}

/* Replaces the address on top of the stack with the integer there; false if the read failed. */
RS_INLINE bool rs_filter_load(const struct rs_filter_insn *in, struct rs_filter_scratch *sc,
			      rs_u64 *top)
{
	/*
	 * 1 to 8 by arithmetic, not by a test: the verifier must see the bound on the very
	 * register passed as the read's size, and the compiler may test a copy. User space only
	 * writes 1, 2, 4 and 8.
	 */
	rs_u32 size = ((in->size - 1u) & 7) + 1;

	sc->val = 0;
	if (RS_FILTER_READ(&sc->val, size, *top, rs_filter_user_addr(in->flags, *top)))
		return false;
	*top = in->flags & RS_FFL_SIGNED ? rs_filter_sext(sc->val, size) : sc->val;
	return true;
}

/*
 * One instruction that works on the top of the stack (and pops the value below it for binary
 * operations). False ends the program as false: a failed read or a malformed program.
 */
RS_INLINE bool rs_filter_step(const struct rs_arg_filter *f, const struct rs_filter_insn *in,
			      const rs_u64 *slots, struct rs_filter_scratch *sc)
{
	rs_u32 sp = RS_FILTER_SP(sc);
	rs_u64 *top = &sc->stack[(sp - 1) & (RS_FILTER_MAX_STACK - 1)];
	rs_u64 *below = &sc->stack[(sp - 2) & (RS_FILTER_MAX_STACK - 1)];

	switch (in->op) {
	case RS_FOP_ARG:
	case RS_FOP_CONST:
		if (sp >= RS_FILTER_MAX_STACK)
			return false;
		sc->stack[sp & (RS_FILTER_MAX_STACK - 1)] =
			in->op == RS_FOP_ARG ? slots[in->imm & (RS_MAX_ARG_SLOTS - 1)] : in->imm;
		RS_FILTER_SP(sc) = sp + 1;
		return true;
	case RS_FOP_JFALSE:
	case RS_FOP_JTRUE:
		if (!sp)
			return false;
		if ((*top != 0) == (in->op == RS_FOP_JTRUE))
			RS_FILTER_PC(sc) = RS_FILTER_PC(sc) + (rs_u32)in->imm; /* result stays */
		else
			RS_FILTER_SP(sc) = sp - 1;
		return true;
	case RS_FOP_AND:
	case RS_FOP_CMP:
		if (sp < 2)
			return false;
		*below = in->op == RS_FOP_AND ? *below & *top
					      : rs_filter_compare(in->aux, *below, *top);
		RS_FILTER_SP(sc) = sp - 1;
		return true;
	}
	if (!sp)
		return false;
	switch (in->op) {
	case RS_FOP_ADD:
		*top += in->imm;
		return true;
	case RS_FOP_NOT:
		*top = !*top;
		return true;
	case RS_FOP_NEG:
		*top = -*top;
		return true;
	case RS_FOP_BITS:
		*top = (*top >> (in->aux & 63)) & in->imm;
		return true;
	case RS_FOP_LOAD:
		return rs_filter_load(in, sc, top);
	case RS_FOP_STR:
		return rs_filter_str_op(f, in, sc, top);
	}
	return false;
}

/* Whether the call with argument slots slots passes filter f. */
RS_INLINE bool rs_filter_run(const struct rs_arg_filter *f, const rs_u64 *slots,
			     struct rs_filter_scratch *sc)
{
	const struct rs_filter_insn *in;
	rs_u32 n, pc;

	RS_FILTER_PC(sc) = 0;
	RS_FILTER_SP(sc) = 0;
	for (n = 0; n < RS_FILTER_MAX_INSNS; n++) {
		pc = RS_FILTER_PC(sc);
		if (pc >= f->cnt || pc >= RS_FILTER_MAX_INSNS)
			break;
		in = &f->insns[pc & (RS_FILTER_MAX_INSNS - 1)];
		RS_FILTER_PC(sc) = pc + 1;
		if (!rs_filter_step(f, in, slots, sc))
			return false;
	}
	return RS_FILTER_SP(sc) &&
	       sc->stack[(RS_FILTER_SP(sc) - 1) & (RS_FILTER_MAX_STACK - 1)] != 0;
}

#endif /* RETSNOOP_BPF_ARG_FILTER_H */
