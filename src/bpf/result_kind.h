/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The one definition of "this call failed": the result kinds BTF return types map to, and how a
 * raw return register is read and judged for each. The BPF tracer decides with it which chain
 * to report; user space prints results and applies -x/-X and the return-value filters with the
 * very same code, so the two can never disagree.
 */
#ifndef RETSNOOP_BPF_RESULT_KIND_H
#define RETSNOOP_BPF_RESULT_KIND_H

#include "abi.h"

#ifndef __cplusplus
#include <stdbool.h>
#endif

/*
 * How a function's return value is judged: kernel functions by their BTF return type and the
 * kernel's errno convention; user-space functions by their DWARF return type and C's (a negative
 * int, a NULL pointer, a false bool report a failure).
 */
enum rs_ret_kind {
	RS_RET_VOID = 0,     /* never fails */
	RS_RET_BOOL = 1,     /* never fails */
	RS_RET_UNSIGNED = 2, /* unsigned integers, structs and floats by value: never fail */
	RS_RET_INT32 = 3,    /* fails when the low 32 bits are -4095..-1 */
	RS_RET_INT64 = 4,    /* fails on -4095..-1 */
	RS_RET_PTR = 5,      /* fails on NULL or ERR_PTR */
	RS_RET_INT8 = 6,     /* narrow signed integers never carry an errno: never fail */
	RS_RET_INT16 = 7,
	RS_RET_NEG8 = 8, /* user space: signed integers fail when negative */
	RS_RET_NEG16 = 9,
	RS_RET_NEG32 = 10,
	RS_RET_NEG64 = 11,
	RS_RET_FALSE = 12, /* user space: bool fails when false */
	RS_RET_KIND_CNT    /* keep last: user space asserts it names every kind */
};

/*
 * The value the function returned, read in the width of its type: the x86-64 ABI leaves the
 * register bits above a narrow result undefined, and a bool lives in the low byte only.
 */
RS_INLINE rs_s64 rs_result_value(rs_s64 res, rs_u8 kind)
{
	switch (kind) {
	case RS_RET_BOOL:
	case RS_RET_FALSE:
		return (rs_u8)res != 0;
	case RS_RET_INT8:
	case RS_RET_NEG8:
		return (signed char)res;
	case RS_RET_INT16:
	case RS_RET_NEG16:
		return (short)res;
	case RS_RET_INT32:
	case RS_RET_NEG32:
		return (int)res;
	default:
		return res;
	}
}

/* -4095..-1: an errno, or an ERR_PTR seen as a signed number. */
RS_INLINE bool rs_is_errno_value(rs_s64 value)
{
	return value < 0 && value >= -RS_MAX_ERRNO;
}

/* Whether functions of this kind can fail at all. */
RS_INLINE bool rs_kind_can_fail(rs_u8 kind)
{
	return kind == RS_RET_INT32 || kind == RS_RET_INT64 || kind == RS_RET_PTR ||
	       (kind >= RS_RET_NEG8 && kind <= RS_RET_FALSE);
}

/* Whether a call of this kind returning res failed. */
RS_INLINE bool rs_result_failed(rs_s64 res, rs_u8 kind)
{
	if (!rs_kind_can_fail(kind))
		return false;
	if (kind == RS_RET_PTR && res == 0)
		return true;
	if (kind == RS_RET_FALSE)
		return rs_result_value(res, kind) == 0;
	if (kind >= RS_RET_NEG8)
		return rs_result_value(res, kind) < 0;
	return rs_is_errno_value(rs_result_value(res, kind));
}

#endif /* RETSNOOP_BPF_RESULT_KIND_H */
