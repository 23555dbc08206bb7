/* Exact RISC-V binary32 arithmetic for the simulator (internal header).
 *
 * Values are raw IEEE-754 binary32 bit patterns. `rm` is a resolved RISC-V
 * rounding mode (VT_RM_RNE..VT_RM_RMM); callers map dyn (7) through frm and
 * reject 5/6 before calling. `flags` accumulates RISC-V fflags bits (it is
 * only ever OR-ed into). All functions are pure and thread-safe; see
 * src/fp/fp32.c and docs/fp.md for the implementation and its testing. */
#ifndef VT_FP_FP32_H
#define VT_FP_FP32_H
#include <stdint.h>

enum {
  VT_RM_RNE = 0, /* round to nearest, ties to even */
  VT_RM_RTZ = 1, /* toward zero */
  VT_RM_RDN = 2, /* toward -inf */
  VT_RM_RUP = 3, /* toward +inf */
  VT_RM_RMM = 4  /* round to nearest, ties away from zero */
};

enum {
  VT_FFLAG_NX = 0x01, /* inexact */
  VT_FFLAG_UF = 0x02, /* underflow (tiny after rounding and inexact) */
  VT_FFLAG_OF = 0x04, /* overflow */
  VT_FFLAG_DZ = 0x08, /* divide by zero */
  VT_FFLAG_NV = 0x10  /* invalid operation */
};

#define VT_F32_CANONICAL_NAN 0x7fc00000u

uint32_t vt_f32_add(uint32_t a, uint32_t b, int rm, uint32_t *flags);
uint32_t vt_f32_sub(uint32_t a, uint32_t b, int rm, uint32_t *flags);
uint32_t vt_f32_mul(uint32_t a, uint32_t b, int rm, uint32_t *flags);
uint32_t vt_f32_div(uint32_t a, uint32_t b, int rm, uint32_t *flags);
uint32_t vt_f32_sqrt(uint32_t a, int rm, uint32_t *flags);

/* a*b+c rounded once. RISC-V raises NV for inf*0 even when c is a quiet NaN. */
uint32_t vt_f32_fma(uint32_t a, uint32_t b, uint32_t c, int rm, uint32_t *flags);
/* fmsub = a*b-c, fnmsub = -(a*b)+c, fnmadd = -(a*b)-c: operand sign flips,
 * exactly as the RISC-V F instructions (and vfmsac & co.) define them. */
static inline uint32_t vt_f32_fmsub(uint32_t a, uint32_t b, uint32_t c, int rm, uint32_t *flags) {
  return vt_f32_fma(a, b, c ^ 0x80000000u, rm, flags);
}
static inline uint32_t vt_f32_fnmsub(uint32_t a, uint32_t b, uint32_t c, int rm, uint32_t *flags) {
  return vt_f32_fma(a ^ 0x80000000u, b, c, rm, flags);
}
static inline uint32_t vt_f32_fnmadd(uint32_t a, uint32_t b, uint32_t c, int rm, uint32_t *flags) {
  return vt_f32_fma(a ^ 0x80000000u, b, c ^ 0x80000000u, rm, flags);
}

/* RISC-V 2.2 fmin/fmax: a NaN operand is ignored, two NaNs give the
 * canonical NaN, any signalling NaN raises NV, -0.0 < +0.0. */
uint32_t vt_f32_min(uint32_t a, uint32_t b, uint32_t *flags);
uint32_t vt_f32_max(uint32_t a, uint32_t b, uint32_t *flags);

/* Comparisons return 0/1. eq is quiet (NV only for a signalling NaN);
 * lt/le are signalling (NV for any NaN). */
int vt_f32_eq(uint32_t a, uint32_t b, uint32_t *flags);
int vt_f32_lt(uint32_t a, uint32_t b, uint32_t *flags);
int vt_f32_le(uint32_t a, uint32_t b, uint32_t *flags);

/* Conversions with RISC-V saturation: NaN -> 0x7fffffff (signed) or
 * 0xffffffff (unsigned); out of range -> the nearest bound; NV on invalid,
 * NX when inexact and valid. */
uint32_t vt_f32_to_i32(uint32_t a, int rm, uint32_t *flags); /* returns the int32 bits */
uint32_t vt_f32_to_u32(uint32_t a, int rm, uint32_t *flags);
uint32_t vt_i32_to_f32(int32_t x, int rm, uint32_t *flags);
uint32_t vt_u32_to_f32(uint32_t x, int rm, uint32_t *flags);

/* fclass mask: bit 0 -inf, 1 -normal, 2 -subnormal, 3 -0, 4 +0,
 * 5 +subnormal, 6 +normal, 7 +inf, 8 sNaN, 9 qNaN. */
uint32_t vt_f32_classify(uint32_t a);

static inline uint32_t vt_f32_sgnj(uint32_t a, uint32_t b) {
  return (a & 0x7fffffffu) | (b & 0x80000000u);
}
static inline uint32_t vt_f32_sgnjn(uint32_t a, uint32_t b) {
  return (a & 0x7fffffffu) | (~b & 0x80000000u);
}
static inline uint32_t vt_f32_sgnjx(uint32_t a, uint32_t b) {
  return a ^ (b & 0x80000000u);
}

/* RVV 1.0 vfrec7.v / vfrsqrt7.v 7-bit estimates. rec7 depends on rm only
 * when a tiny subnormal input overflows (NX|OF: infinity or the largest
 * finite value, by rounding direction). */
uint32_t vt_f32_rec7(uint32_t a, int rm, uint32_t *flags);
uint32_t vt_f32_rsqrt7(uint32_t a, uint32_t *flags);
/* Their 7-bit tables (shared with the binary16 versions in fp16.c):
 * rec7 indexed by the 7 high fraction bits, rsqrt7 by {exponent bit 0,
 * 6 high fraction bits}. */
extern const uint8_t vt_fp_rec7_table[128];
extern const uint8_t vt_fp_rsqrt7_table[128];

/* Ventus vfexp (isa.md 2.7): (float)exp((double)a) with the host C
 * library, round to nearest, no flags. */
uint32_t vt_f32_exp_ventus(uint32_t a);

#endif
