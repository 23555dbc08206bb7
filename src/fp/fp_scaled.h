/* One operation of two values of a binary format, scaled by a power of two
 * before its single rounding (internal header): the arithmetic of VOP64's
 * OMOD (isa2025.md 3.8.3, C13). Values are raw bit patterns of the format
 * (binary16 and binary32 in the low bits of the uint64_t); rm and flags as
 * in fp32.h. See src/fp/fp_scaled.c and docs/fp.md. */
#ifndef VT_FP_FP_SCALED_H
#define VT_FP_FP_SCALED_H
#include <stdint.h>

#include "fp/fp_round.h"

enum { VT_FP_SCALED_ADD, VT_FP_SCALED_SUB, VT_FP_SCALED_MUL };

/* round((a op b) * 2^k) in format f (binary16, binary32 or binary64): the
 * exact sum, difference or product times 2^k rounded once with rm. NaN
 * results are the format's canonical NaN (NV for a signalling operand,
 * inf - inf, 0 * inf); an exact zero sum is +0 (-0 in RDN) unless both
 * operands are zeros of one sign; infinities stay infinities. With k = 0
 * this is the IEEE/RISC-V add, sub or mul. */
uint64_t vt_fp_scaled_op(vt_fp_fmt f, int op, uint64_t a, uint64_t b, int k, int rm,
                         uint32_t *flags);
#endif
