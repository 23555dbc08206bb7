/* bfloat16 conversions (isa2025.md 3.2.4, vfcvt.f.bf16.v / vfcvt.bf16.f.v;
 * internal header). bfloat16 has 1 sign, 8 exponent and 7 fraction bits
 * (the upper half of a binary32); it has no arithmetic outside MMA
 * (isa2025.md 3.2.5). Values sit in the low 16 bits of a uint32_t; the upper
 * bits of an argument are ignored and results have them clear (the
 * instruction sign-extends, D28). Same rounding modes and fflags as
 * fp32.h. See src/fp/bf16.c and docs/fp.md. */
#ifndef VT_FP_BF16_H
#define VT_FP_BF16_H
#include <stdint.h>

#include "fp/fp32.h"

#define VT_BF16_CANONICAL_NAN 0x7fc0u

/* Exact: b << 16, except that a NaN gives 0x7fc00000 (NV if signalling:
 * exponent all ones, fraction non-zero with its top bit 0). */
uint32_t vt_bf16_to_f32(uint32_t b, uint32_t *flags);

/* binary32 rounded to bfloat16 with rm: subnormals kept, overflow and
 * tininess after rounding as for every format, NaN -> 0x7fc0 (NV if
 * signalling). */
uint32_t vt_f32_to_bf16(uint32_t a, int rm, uint32_t *flags);

#endif
