/* One rounding step for every binary format: an exact value (or a value
 * with a sticky bit) rounded to binary64, binary32, binary16 or bfloat16
 * with the RISC-V rules (internal header, used by src/fp/fp64.c,
 * src/fp/fp64_cvt.c and src/fp/bf16.c; usable by any FP code in src/).
 *
 * Rules (docs/fp.md): the five rounding modes; overflow after rounding
 * (OF|NX, infinity or the largest finite value by direction); subnormal
 * results kept; tininess detected AFTER rounding (the value rounded to p bits
 * with unbounded exponent is below 2^emin), UF only when tiny and inexact;
 * NX when inexact. The functions are pure static inline code: with a
 * constant format the compiler folds every format parameter. */
#ifndef VT_FP_FP_ROUND_H
#define VT_FP_FP_ROUND_H
#include <stdint.h>

#include "fp/fp32.h" /* VT_RM_*, VT_FFLAG_* */

__extension__ typedef unsigned __int128 vt_u128;

/* A binary format: p significand bits (the hidden bit included, 2..62),
 * exponent bias = emax, emin = 1 - emax, sign bit position. */
typedef struct vt_fp_fmt {
  int prec, emax, sign_pos;
} vt_fp_fmt;
#define VT_FMT_F64 ((vt_fp_fmt){53, 1023, 63})
#define VT_FMT_F32 ((vt_fp_fmt){24, 127, 31})
#define VT_FMT_F16 ((vt_fp_fmt){11, 15, 15})
#define VT_FMT_BF16 ((vt_fp_fmt){8, 127, 15})

static inline int vt_clz64(uint64_t x) { return __builtin_clzll(x); } /* x != 0 */
static inline int vt_clz128(vt_u128 x) {                             /* x != 0 */
  uint64_t hi = (uint64_t)(x >> 64);
  return hi ? __builtin_clzll(hi) : 64 + __builtin_clzll((uint64_t)x);
}

/* Shift right, OR-ing every bit shifted out into bit 0 ("jamming"). */
static inline uint64_t vt_shr_jam64(uint64_t x, int n) {
  if (n <= 0) return x;
  if (n >= 64) return x != 0;
  return (x >> n) | ((x << (64 - n)) != 0);
}
static inline vt_u128 vt_shr_jam128(vt_u128 x, int n) {
  if (n <= 0) return x;
  if (n >= 128) return x != 0;
  return (x >> n) | ((x << (128 - n)) != 0);
}

/* Round (-1)^sign * m * 2^(E - 63) to fmt and pack it. m is normalised
 * (bit 63 set), so 2^E is the weight of its leading bit; bit 0 may be a
 * sticky bit (the OR of every bit of the exact value below it), which is
 * correct because p + 2 <= 64 bits lie above it. */
static inline uint64_t vt_fp_round_pack(vt_fp_fmt f, uint32_t sign, int E, uint64_t m, int rm,
                                        uint32_t *flags) {
  const int sh = 64 - f.prec, emin = 1 - f.emax;
  const uint64_t mask = (((uint64_t)1) << sh) - 1, half = ((uint64_t)1) << (sh - 1);
  const uint64_t sign_bit = (uint64_t)sign << f.sign_pos;
  uint64_t inc;
  switch (rm) {
  case VT_RM_RNE:
  case VT_RM_RMM: inc = half; break;
  case VT_RM_RDN: inc = sign ? mask : 0; break;
  case VT_RM_RUP: inc = sign ? 0 : mask; break;
  default: inc = 0; break; /* RTZ */
  }
  if (E < emin) {
    /* Tiny after rounding unless rounding to p bits with unbounded exponent
     * carries up to 2^emin (only possible from [2^(emin-1), 2^emin)). An RNE
     * tie carries too: the p kept bits are then all ones, an odd value. */
    int tiny = E < emin - 1 || (((m >> sh) + (((m & mask) + inc) >> sh)) >> f.prec) == 0;
    m = vt_shr_jam64(m, emin - E);
    E = emin; /* the exponent field below becomes 0 */
    if (tiny && (m & mask)) *flags |= VT_FFLAG_UF;
  }
  uint64_t r = m & mask;
  uint64_t k = (m >> sh) + ((r + inc) >> sh);
  if (rm == VT_RM_RNE && r == half) k &= ~(uint64_t)1;
  if (E >= f.emax && (E > f.emax || (k >> f.prec))) {
    *flags |= VT_FFLAG_OF | VT_FFLAG_NX;
    uint64_t inf = (uint64_t)(2 * f.emax + 1) << (f.prec - 1);
    return sign_bit | (inc ? inf : inf - 1); /* inc != 0: rounding away from zero */
  }
  if (r) *flags |= VT_FFLAG_NX;
  /* k includes the hidden bit (2^(p-1)); a carry to 2^p, or from the
   * subnormal range to 2^(p-1), increments the exponent field. */
  return sign_bit | (((uint64_t)(E + f.emax - 1) << (f.prec - 1)) + k);
}

/* Round (-1)^sign * x * 2^e, x != 0 exact (or with a sticky bit 0 below
 * at least p + 2 significant bits). */
static inline uint64_t vt_fp_round_u64(vt_fp_fmt f, uint32_t sign, uint64_t x, int e, int rm,
                                       uint32_t *flags) {
  int lz = vt_clz64(x);
  return vt_fp_round_pack(f, sign, e + 63 - lz, x << lz, rm, flags);
}
static inline uint64_t vt_fp_round_u128(vt_fp_fmt f, uint32_t sign, vt_u128 x, int e, int rm,
                                        uint32_t *flags) {
  int lz = vt_clz128(x);
  x <<= lz;
  uint64_t m = (uint64_t)(x >> 64) | ((uint64_t)x != 0);
  return vt_fp_round_pack(f, sign, e + 127 - lz, m, rm, flags);
}

#endif
