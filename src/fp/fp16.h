/* Exact RISC-V binary16 arithmetic for the simulator (internal header).
 *
 * Same conventions as fp32.h: values are raw IEEE-754 binary16 bit patterns
 * held in the low 16 bits of a uint32_t (the upper bits of an argument are
 * ignored, results have them clear); `rm` is a resolved rounding mode
 * VT_RM_RNE..VT_RM_RMM; `flags` accumulates RISC-V fflags. All functions
 * are pure and thread-safe; see src/fp/fp16.c and docs/fp.md. */
#ifndef VT_FP_FP16_H
#define VT_FP_FP16_H
#include <stdint.h>

#include "fp/fp32.h"

#define VT_F16_CANONICAL_NAN 0x7e00u

uint32_t vt_f16_add(uint32_t a, uint32_t b, int rm, uint32_t *flags);
uint32_t vt_f16_sub(uint32_t a, uint32_t b, int rm, uint32_t *flags);
uint32_t vt_f16_mul(uint32_t a, uint32_t b, int rm, uint32_t *flags);
uint32_t vt_f16_div(uint32_t a, uint32_t b, int rm, uint32_t *flags);
uint32_t vt_f16_sqrt(uint32_t a, int rm, uint32_t *flags);

/* a*b+c rounded once; NV for inf*0 even when c is a quiet NaN. */
uint32_t vt_f16_fma(uint32_t a, uint32_t b, uint32_t c, int rm, uint32_t *flags);
static inline uint32_t vt_f16_fmsub(uint32_t a, uint32_t b, uint32_t c, int rm, uint32_t *flags) {
  return vt_f16_fma(a, b, c ^ 0x8000u, rm, flags);
}
static inline uint32_t vt_f16_fnmsub(uint32_t a, uint32_t b, uint32_t c, int rm, uint32_t *flags) {
  return vt_f16_fma(a ^ 0x8000u, b, c, rm, flags);
}
static inline uint32_t vt_f16_fnmadd(uint32_t a, uint32_t b, uint32_t c, int rm, uint32_t *flags) {
  return vt_f16_fma(a ^ 0x8000u, b, c ^ 0x8000u, rm, flags);
}

/* RISC-V 2.2 min/max and comparisons, as the binary32 ones. */
uint32_t vt_f16_min(uint32_t a, uint32_t b, uint32_t *flags);
uint32_t vt_f16_max(uint32_t a, uint32_t b, uint32_t *flags);
int vt_f16_eq(uint32_t a, uint32_t b, uint32_t *flags);
int vt_f16_lt(uint32_t a, uint32_t b, uint32_t *flags);
int vt_f16_le(uint32_t a, uint32_t b, uint32_t *flags);

/* fclass mask, same bits as vt_f32_classify. */
uint32_t vt_f16_classify(uint32_t a);

static inline uint32_t vt_f16_sgnj(uint32_t a, uint32_t b) {
  return (a & 0x7fffu) | (b & 0x8000u);
}
static inline uint32_t vt_f16_sgnjn(uint32_t a, uint32_t b) {
  return (a & 0x7fffu) | (~b & 0x8000u);
}
static inline uint32_t vt_f16_sgnjx(uint32_t a, uint32_t b) {
  return (a ^ (b & 0x8000u)) & 0xffffu;
}

/* binary16 <-> binary32. Widening is exact (NV only for a signalling NaN,
 * NaN -> 0x7fc00000); narrowing rounds with rm, or to odd (vfncvt.rod:
 * truncate, then set the last bit if inexact; overflow gives the largest
 * finite value with OF|NX). NaN -> 0x7e00. */
uint32_t vt_f16_to_f32(uint32_t a, uint32_t *flags);
uint32_t vt_f32_to_f16(uint32_t a, int rm, uint32_t *flags);
uint32_t vt_f32_to_f16_rod(uint32_t a, uint32_t *flags);

/* To integers of `bits` (8, 16 or 32) bits with RISC-V saturation: the value
 * is rounded with rm; NaN or too large -> the largest value, too small ->
 * the smallest, with NV (and no NX); else NX when inexact. The result is
 * the integer's two's complement bits, truncated to `bits`. */
uint32_t vt_f16_to_int(uint32_t a, int bits, int is_signed, int rm, uint32_t *flags);
uint32_t vt_f32_to_int(uint32_t a, int bits, int is_signed, int rm, uint32_t *flags);

/* Integers to binary16, rounded with rm (int8/int16 values are passed
 * sign- or zero-extended). 65520 and more overflow. */
uint32_t vt_i32_to_f16(int32_t x, int rm, uint32_t *flags);
uint32_t vt_u32_to_f16(uint32_t x, int rm, uint32_t *flags);

/* RVV 1.0 vfrec7.v / vfrsqrt7.v at SEW = 16 (same tables as binary32). */
uint32_t vt_f16_rec7(uint32_t a, int rm, uint32_t *flags);
uint32_t vt_f16_rsqrt7(uint32_t a, uint32_t *flags);

#endif
