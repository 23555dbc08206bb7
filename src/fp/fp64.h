/* Exact RISC-V binary64 arithmetic and the conversions that involve 64-bit
 * values (internal header).
 *
 * Same conventions as fp32.h: values are raw IEEE-754 bit patterns
 * (binary64 in a uint64_t; binary32 in a uint32_t; binary16 in the low 16
 * bits of a uint32_t, upper bits ignored on input); `rm` is a resolved
 * rounding mode VT_RM_RNE..VT_RM_RMM; `flags` accumulates RISC-V fflags.
 * Rules: isa2025.md 3.0 ("binary64 follows exactly the binary32 rules"):
 * tininess after rounding, canonical NaN 0x7ff8000000000000, RISC-V 2.2
 * fmin/fmax, saturating float -> integer conversions (Appendix C6). All
 * functions are pure and thread-safe; see src/fp/fp64.c, src/fp/fp64_cvt.c
 * and docs/fp.md. */
#ifndef VT_FP_FP64_H
#define VT_FP_FP64_H
#include <stdint.h>

#include "fp/fp32.h"

#define VT_F64_CANONICAL_NAN 0x7ff8000000000000ull
#define VT_F64_SIGN 0x8000000000000000ull

uint64_t vt_f64_add(uint64_t a, uint64_t b, int rm, uint32_t *flags);
uint64_t vt_f64_sub(uint64_t a, uint64_t b, int rm, uint32_t *flags);
uint64_t vt_f64_mul(uint64_t a, uint64_t b, int rm, uint32_t *flags);
uint64_t vt_f64_div(uint64_t a, uint64_t b, int rm, uint32_t *flags);
uint64_t vt_f64_sqrt(uint64_t a, int rm, uint32_t *flags);

/* a*b+c rounded once; NV for inf*0 even when c is a quiet NaN. The sign
 * variants flip operand signs (fmsub = a*b-c, fnmsub = -(a*b)+c,
 * fnmadd = -(a*b)-c), as the RISC-V D instructions and vfmsac & co. do. */
uint64_t vt_f64_fma(uint64_t a, uint64_t b, uint64_t c, int rm, uint32_t *flags);
static inline uint64_t vt_f64_fmsub(uint64_t a, uint64_t b, uint64_t c, int rm, uint32_t *flags) {
  return vt_f64_fma(a, b, c ^ VT_F64_SIGN, rm, flags);
}
static inline uint64_t vt_f64_fnmsub(uint64_t a, uint64_t b, uint64_t c, int rm, uint32_t *flags) {
  return vt_f64_fma(a ^ VT_F64_SIGN, b, c, rm, flags);
}
static inline uint64_t vt_f64_fnmadd(uint64_t a, uint64_t b, uint64_t c, int rm, uint32_t *flags) {
  return vt_f64_fma(a ^ VT_F64_SIGN, b, c ^ VT_F64_SIGN, rm, flags);
}

/* RISC-V 2.2 fmin/fmax: a NaN operand is ignored, two NaNs give the
 * canonical NaN, any signalling NaN raises NV, -0.0 < +0.0. */
uint64_t vt_f64_min(uint64_t a, uint64_t b, uint32_t *flags);
uint64_t vt_f64_max(uint64_t a, uint64_t b, uint32_t *flags);

/* 0/1. eq is quiet (NV only for a signalling NaN); lt/le signal (NV for
 * any NaN). */
int vt_f64_eq(uint64_t a, uint64_t b, uint32_t *flags);
int vt_f64_lt(uint64_t a, uint64_t b, uint32_t *flags);
int vt_f64_le(uint64_t a, uint64_t b, uint32_t *flags);

/* fclass mask, same bits as vt_f32_classify. */
uint32_t vt_f64_classify(uint64_t a);

static inline uint64_t vt_f64_sgnj(uint64_t a, uint64_t b) {
  return (a & ~VT_F64_SIGN) | (b & VT_F64_SIGN);
}
static inline uint64_t vt_f64_sgnjn(uint64_t a, uint64_t b) {
  return (a & ~VT_F64_SIGN) | (~b & VT_F64_SIGN);
}
static inline uint64_t vt_f64_sgnjx(uint64_t a, uint64_t b) { return a ^ (b & VT_F64_SIGN); }

/* RVV 1.0 vfrec7.v / vfrsqrt7.v at SEW = 64 (the binary32 tables; a
 * subnormal input below 2^-1024 in magnitude makes rec7 overflow: NX|OF,
 * infinity or the largest finite value by rounding direction). */
uint64_t vt_f64_rec7(uint64_t a, int rm, uint32_t *flags);
uint64_t vt_f64_rsqrt7(uint64_t a, uint32_t *flags);

/* ---- conversions (src/fp/fp64_cvt.c) ----
 * Float -> integer: rounded with rm, then RISC-V saturation: NaN and too
 * large -> the largest value, too small -> the smallest (0 for unsigned),
 * NV and no NX; otherwise NX when inexact (fcvt.w.d, fcvt.l.d, fcvt.l.s, ...;
 * isa2025.md Appendix C6). Results are two's complement bits. */
uint32_t vt_f64_to_i32(uint64_t a, int rm, uint32_t *flags);
uint32_t vt_f64_to_u32(uint64_t a, int rm, uint32_t *flags);
uint64_t vt_f64_to_i64(uint64_t a, int rm, uint32_t *flags);
uint64_t vt_f64_to_u64(uint64_t a, int rm, uint32_t *flags);
uint64_t vt_f32_to_i64(uint32_t a, int rm, uint32_t *flags);
uint64_t vt_f32_to_u64(uint32_t a, int rm, uint32_t *flags);

/* Integer -> float. 32-bit integers convert to binary64 exactly (no rm,
 * no flags); 64-bit ones round with rm (NX when inexact). */
uint64_t vt_i32_to_f64(int32_t x);
uint64_t vt_u32_to_f64(uint32_t x);
uint64_t vt_i64_to_f64(int64_t x, int rm, uint32_t *flags);
uint64_t vt_u64_to_f64(uint64_t x, int rm, uint32_t *flags);
uint32_t vt_i64_to_f32(int64_t x, int rm, uint32_t *flags);
uint32_t vt_u64_to_f32(uint64_t x, int rm, uint32_t *flags);

/* Between float formats. Widening is exact: a NaN becomes the canonical
 * NaN of the wider format, NV only for a signalling NaN. Narrowing rounds
 * with rm (NV for a signalling NaN, OF/UF/NX from the rounding; a NaN gives
 * 0x7fc00000 or 0x7e00). */
uint64_t vt_f32_to_f64(uint32_t a, uint32_t *flags);
uint32_t vt_f64_to_f32(uint64_t a, int rm, uint32_t *flags);
uint64_t vt_f16_to_f64(uint32_t a, uint32_t *flags);
uint32_t vt_f64_to_f16(uint64_t a, int rm, uint32_t *flags);

#endif
