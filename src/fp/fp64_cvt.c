/* RISC-V conversions involving 64-bit values: binary64 <-> int32/uint32/
 * int64/uint64, binary32 <-> int64/uint64, binary64 <-> binary32/binary16.
 *
 * Every source value is an integer times a power of two, so each conversion
 * rounds an exact value once: to a format with vt_fp_round_u64
 * (src/fp/fp_round.h), to an integer with round_to_int below, followed by
 * the RISC-V saturation rules (isa2025.md Appendix C6: NaN and too large ->
 * the largest value, too small -> the smallest, NV and no NX). The checks
 * are made after rounding, so e.g. -0.4 -> uint32 in RNE is 0 with NX, and
 * -0.6 is out of range (NV). Tested against MPFR in
 * tests/unit/test_fp64_mpfr.c (docs/fp.md). */
#include "fp/fp16.h"
#include "fp/fp64.h"
#include "fp/fp_round.h"

#define MAG64 0x7fffffffffffffffull
#define INF64 0x7ff0000000000000ull
#define FRAC64 0x000fffffffffffffull
#define CNAN64 VT_F64_CANONICAL_NAN

/* A float operand split for conversion: kind, sign, and for finite values
 * |x| = sig * 2^e. */
enum { K_ZERO, K_FINITE, K_INF, K_QNAN, K_SNAN };
typedef struct parts {
  int kind;
  uint32_t sign;
  uint64_t sig;
  int e;
} parts;

static parts split64(uint64_t a) {
  parts p = {K_FINITE, (uint32_t)(a >> 63), 0, 0};
  int be = (int)((a >> 52) & 0x7ff);
  uint64_t f = a & FRAC64;
  if (be == 0x7ff) {
    p.kind = f == 0 ? K_INF : (f & 0x0008000000000000ull) ? K_QNAN : K_SNAN;
  } else if (be == 0 && f == 0) {
    p.kind = K_ZERO;
  } else {
    p.sig = be ? f | 0x0010000000000000ull : f;
    p.e = (be ? be : 1) - 1075;
  }
  return p;
}
static parts split32(uint32_t a) {
  parts p = {K_FINITE, a >> 31, 0, 0};
  int be = (int)((a >> 23) & 0xff);
  uint32_t f = a & 0x007fffffu;
  if (be == 0xff) {
    p.kind = f == 0 ? K_INF : (f & 0x00400000u) ? K_QNAN : K_SNAN;
  } else if (be == 0 && f == 0) {
    p.kind = K_ZERO;
  } else {
    p.sig = be ? f | 0x00800000u : f;
    p.e = (be ? be : 1) - 150;
  }
  return p;
}
static parts split16(uint32_t a) {
  parts p = {K_FINITE, (a >> 15) & 1, 0, 0};
  int be = (int)((a >> 10) & 0x1f);
  uint32_t f = a & 0x3ffu;
  if (be == 0x1f) {
    p.kind = f == 0 ? K_INF : (f & 0x200u) ? K_QNAN : K_SNAN;
  } else if (be == 0 && f == 0) {
    p.kind = K_ZERO;
  } else {
    p.sig = be ? f | 0x400u : f;
    p.e = (be ? be : 1) - 25;
  }
  return p;
}

/* ---------------- float -> integer ---------------- */

/* sig * 2^e (sig < 2^53) rounded to an integer in mode rm (sign: the
 * value's sign); *big set if it is 2^64 or more; *inexact if not exact. */
static uint64_t round_to_int(uint32_t sign, uint64_t sig, int e, int rm, int *big, int *inexact) {
  *big = 0;
  *inexact = 0;
  if (e >= 0) {
    if (e > vt_clz64(sig)) { /* sig * 2^e >= 2^64 */
      *big = 1;
      return 0;
    }
    return sig << e;
  }
  uint64_t k;
  int rbit, sticky;
  int sh = -e;
  if (sh > 64) {
    k = 0, rbit = 0, sticky = 1;
  } else if (sh == 64) {
    k = 0, rbit = (int)(sig >> 63), sticky = (sig << 1) != 0;
  } else {
    k = sig >> sh;
    rbit = (int)((sig >> (sh - 1)) & 1);
    sticky = (sig & ((((uint64_t)1) << (sh - 1)) - 1)) != 0;
  }
  *inexact = rbit | sticky;
  switch (rm) {
  case VT_RM_RNE: return k + (uint64_t)(rbit && (sticky || (k & 1)));
  case VT_RM_RMM: return k + (uint64_t)rbit;
  case VT_RM_RDN: return k + (uint64_t)(sign && *inexact);
  case VT_RM_RUP: return k + (uint64_t)(!sign && *inexact);
  default: return k; /* RTZ */
  }
}

/* The RISC-V conversion of p to a `bits`-bit (32 or 64) integer. */
static uint64_t to_int(parts p, int bits, int is_signed, int rm, uint32_t *flags) {
  const uint64_t umax = bits == 64 ? ~(uint64_t)0 : (((uint64_t)1) << bits) - 1;
  const uint64_t smax = umax >> 1; /* 2^(bits-1) - 1 */
  const uint64_t hi = is_signed ? smax : umax;
  const uint64_t lo_mag = is_signed ? smax + 1 : 0; /* the smallest value is -lo_mag */
  if (p.kind == K_QNAN || p.kind == K_SNAN) {
    *flags |= VT_FFLAG_NV;
    return hi;
  }
  if (p.kind == K_ZERO) return 0;
  int big = 0, inexact = 0;
  uint64_t mag = p.kind == K_INF ? 0 : round_to_int(p.sign, p.sig, p.e, rm, &big, &inexact);
  if (p.kind == K_INF) big = 1;
  if (big || mag > (p.sign ? lo_mag : hi)) {
    *flags |= VT_FFLAG_NV;
    return p.sign ? (0 - lo_mag) & umax : hi;
  }
  if (inexact) *flags |= VT_FFLAG_NX;
  return (p.sign ? 0 - mag : mag) & umax;
}

uint32_t vt_f64_to_i32(uint64_t a, int rm, uint32_t *flags) {
  return (uint32_t)to_int(split64(a), 32, 1, rm, flags);
}
uint32_t vt_f64_to_u32(uint64_t a, int rm, uint32_t *flags) {
  return (uint32_t)to_int(split64(a), 32, 0, rm, flags);
}
uint64_t vt_f64_to_i64(uint64_t a, int rm, uint32_t *flags) { return to_int(split64(a), 64, 1, rm, flags); }
uint64_t vt_f64_to_u64(uint64_t a, int rm, uint32_t *flags) { return to_int(split64(a), 64, 0, rm, flags); }
uint64_t vt_f32_to_i64(uint32_t a, int rm, uint32_t *flags) { return to_int(split32(a), 64, 1, rm, flags); }
uint64_t vt_f32_to_u64(uint32_t a, int rm, uint32_t *flags) { return to_int(split32(a), 64, 0, rm, flags); }

/* ---------------- integer -> float ---------------- */

uint64_t vt_i32_to_f64(int32_t x) {
  uint32_t ignored = 0; /* exact: 32 bits fit in 53 */
  return vt_i64_to_f64(x, VT_RM_RNE, &ignored);
}
uint64_t vt_u32_to_f64(uint32_t x) {
  uint32_t ignored = 0;
  return vt_u64_to_f64(x, VT_RM_RNE, &ignored);
}
uint64_t vt_i64_to_f64(int64_t x, int rm, uint32_t *flags) {
  if (x == 0) return 0;
  uint32_t sign = x < 0;
  uint64_t m = sign ? 0 - (uint64_t)x : (uint64_t)x;
  return vt_fp_round_u64(VT_FMT_F64, sign, m, 0, rm, flags);
}
uint64_t vt_u64_to_f64(uint64_t x, int rm, uint32_t *flags) {
  if (x == 0) return 0;
  return vt_fp_round_u64(VT_FMT_F64, 0, x, 0, rm, flags);
}
uint32_t vt_i64_to_f32(int64_t x, int rm, uint32_t *flags) {
  if (x == 0) return 0;
  uint32_t sign = x < 0;
  uint64_t m = sign ? 0 - (uint64_t)x : (uint64_t)x;
  return (uint32_t)vt_fp_round_u64(VT_FMT_F32, sign, m, 0, rm, flags);
}
uint32_t vt_u64_to_f32(uint64_t x, int rm, uint32_t *flags) {
  if (x == 0) return 0;
  return (uint32_t)vt_fp_round_u64(VT_FMT_F32, 0, x, 0, rm, flags);
}

/* ---------------- between float formats ---------------- */

/* Widen a finite, zero or infinite p to binary64 (exact). */
static uint64_t widen(parts p) {
  uint64_t sign = (uint64_t)p.sign << 63;
  if (p.kind == K_INF) return sign | INF64;
  if (p.kind == K_ZERO) return sign;
  uint32_t ignored = 0; /* exact: at most 24 significant bits, in range */
  return vt_fp_round_u64(VT_FMT_F64, p.sign, p.sig, p.e, VT_RM_RNE, &ignored);
}
/* Narrow a finite, zero or infinite p to fmt with rounding. */
static uint64_t narrow(parts p, vt_fp_fmt f, int rm, uint32_t *flags) {
  uint64_t sign = (uint64_t)p.sign << f.sign_pos;
  if (p.kind == K_INF) return sign | ((uint64_t)(2 * f.emax + 1) << (f.prec - 1));
  if (p.kind == K_ZERO) return sign;
  return vt_fp_round_u64(f, p.sign, p.sig, p.e, rm, flags);
}

uint64_t vt_f32_to_f64(uint32_t a, uint32_t *flags) {
  parts p = split32(a);
  if (p.kind == K_SNAN) *flags |= VT_FFLAG_NV;
  if (p.kind >= K_QNAN) return CNAN64;
  return widen(p);
}
uint64_t vt_f16_to_f64(uint32_t a, uint32_t *flags) {
  parts p = split16(a);
  if (p.kind == K_SNAN) *flags |= VT_FFLAG_NV;
  if (p.kind >= K_QNAN) return CNAN64;
  return widen(p);
}
uint32_t vt_f64_to_f32(uint64_t a, int rm, uint32_t *flags) {
  parts p = split64(a);
  if (p.kind == K_SNAN) *flags |= VT_FFLAG_NV;
  if (p.kind >= K_QNAN) return VT_F32_CANONICAL_NAN;
  return (uint32_t)narrow(p, VT_FMT_F32, rm, flags);
}
uint32_t vt_f64_to_f16(uint64_t a, int rm, uint32_t *flags) {
  parts p = split64(a);
  if (p.kind == K_SNAN) *flags |= VT_FFLAG_NV;
  if (p.kind >= K_QNAN) return VT_F16_CANONICAL_NAN;
  return (uint32_t)narrow(p, VT_FMT_F16, rm, flags);
}
