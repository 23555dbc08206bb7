/* Exact RISC-V binary16 arithmetic, in software (integer arithmetic only).
 *
 * Every finite binary16 value is sig * 2^exp with an 11-bit integer sig and
 * exp in [-24, 5]. Each operation forms its exact result as an integer
 * times a power of two (128-bit integers where 64 bits do not suffice), or
 * for div/sqrt a truncated quotient/root with a sticky bit for a non-zero
 * remainder and >= 20 significant bits above it. One rounding step
 * (round16) then rounds that to binary16, once, in every mode:
 *  - add/sub: both operands are integers times 2^-24 below 2^40, so the
 *    sum is exact in 64 bits;
 *  - mul: the product of two 11-bit significands (22 bits) is exact;
 *  - fma: product (22 bits at 2^[-48, 10]) plus c (11 bits at 2^[-24, 5])
 *    aligned to the lower exponent needs at most 65 bits: it is formed
 *    exactly in a 128-bit integer, so there is no double rounding at all;
 *  - conversions: binary32 values are 24-bit integers times a power of two.
 * round16 implements RNE/RTZ/RDN/RUP/RMM and round-to-odd (vfncvt.rod),
 * overflow after rounding, tininess after rounding (UF = tiny && inexact)
 * and subnormal results. NaN results are the canonical NaN 0x7e00.
 * Tested against MPFR in tests/unit/test_fp16_mpfr.c (docs/fp.md). */
#include "fp/fp16.h"

#include <math.h>

__extension__ typedef unsigned __int128 u128;
__extension__ typedef __int128 i128;

#define SIGN16 0x8000u
#define INF16 0x7c00u
#define MAX16 0x7bffu
#define CNAN16 VT_F16_CANONICAL_NAN
#define RM_ROD 5 /* internal: round to odd */

static inline int is_nan16(uint32_t a) { return (a & 0x7fffu) > INF16; }
static inline int is_snan16(uint32_t a) { return is_nan16(a) && !(a & 0x0200u); }
static inline int is_zero16(uint32_t a) { return (a & 0x7fffu) == 0; }
static inline int is_inf16(uint32_t a) { return (a & 0x7fffu) == INF16; }

static inline uint32_t nan2(uint32_t a, uint32_t b, uint32_t *flags) {
  if (is_snan16(a) || is_snan16(b)) *flags |= VT_FFLAG_NV;
  return CNAN16;
}
static inline uint32_t invalid(uint32_t *flags) {
  *flags |= VT_FFLAG_NV;
  return CNAN16;
}
static inline uint32_t zero_sum_sign(int rm) { return rm == VT_RM_RDN ? SIGN16 : 0; }

static inline int clz128(u128 x) { /* x != 0 */
  uint64_t hi = (uint64_t)(x >> 64);
  return hi ? __builtin_clzll(hi) : 64 + __builtin_clzll((uint64_t)x);
}

/* Finite non-zero a = sig * 2^exp (subnormals: exp -24, sig < 2^10). */
static inline uint32_t unpack16(uint32_t a, int *exp) {
  int e = (int)((a >> 10) & 0x1f);
  uint32_t f = a & 0x3ffu;
  *exp = (e ? e : 1) - 25;
  return e ? f | 0x400u : f;
}

/* sig >> sh rounded in mode rm (sign: the value's sign); *inexact set if
 * bits were dropped. Requires sig < 2^127 and sig << -sh < 2^64. */
static uint64_t round_shift(u128 sig, int sh, uint32_t sign, int rm, int *inexact) {
  if (sh <= 0) {
    *inexact = 0;
    return (uint64_t)(sig << -sh);
  }
  uint64_t k;
  int r, s;
  if (sh >= 128) { /* sig < 2^127: below one half */
    k = 0, r = 0, s = 1;
  } else {
    k = (uint64_t)(sig >> sh);
    r = (int)((sig >> (sh - 1)) & 1);
    s = (sig & (((u128)1 << (sh - 1)) - 1)) != 0;
  }
  *inexact = r | s;
  switch (rm) {
  case VT_RM_RNE: k += (uint64_t)(r && (s || (k & 1))); break;
  case VT_RM_RMM: k += (uint64_t)r; break;
  case VT_RM_RDN: k += (uint64_t)(sign && (r | s)); break;
  case VT_RM_RUP: k += (uint64_t)(!sign && (r | s)); break;
  case RM_ROD: k |= (uint64_t)(r | s); break;
  default: break; /* RTZ */
  }
  return k;
}

/* Round sign * sig * 2^e (sig != 0, exact or with a sticky low bit below
 * at least 13 significant bits) to binary16. */
static uint32_t round16(uint32_t sign, u128 sig, int e, int rm, uint32_t *flags) {
  int msb = 127 - clz128(sig);
  int E = e + msb; /* the leading bit's weight is 2^E */
  int q = E - 10 < -24 ? -24 : E - 10;
  int inexact, dummy;
  uint64_t k = round_shift(sig, q - e, sign, rm, &inexact);
  uint32_t bits;
  if (E >= -14) {
    if (k >> 11) { /* carried to 2^11 */
      k >>= 1;
      E++;
    }
    if (E > 15) {
      *flags |= VT_FFLAG_OF | VT_FFLAG_NX;
      int to_inf = rm == VT_RM_RNE || rm == VT_RM_RMM || (rm == VT_RM_RUP && !sign) ||
                   (rm == VT_RM_RDN && sign);
      return (sign << 15) | (to_inf ? INF16 : MAX16);
    }
    bits = ((uint32_t)(E + 15) << 10) | ((uint32_t)k & 0x3ffu);
  } else {
    bits = (uint32_t)k; /* 0x400 (the smallest normal) after a carry */
    /* tiny after rounding unless rounding to 11 bits with unbounded
     * exponent reaches 2^-14 */
    int tiny = E < -15 || round_shift(sig, E - 10 - e, sign, rm, &dummy) < 2048;
    if (tiny && inexact) *flags |= VT_FFLAG_UF;
  }
  if (inexact) *flags |= VT_FFLAG_NX;
  return (sign << 15) | bits;
}

/* a + b, neither a NaN */
static uint32_t add_core(uint32_t a, uint32_t b, int rm, uint32_t *flags) {
  uint32_t sa = (a >> 15) & 1, sb = (b >> 15) & 1;
  if (is_inf16(a) || is_inf16(b)) {
    if (is_inf16(a) && is_inf16(b) && sa != sb) return invalid(flags);
    return is_inf16(a) ? a & 0xffffu : b & 0xffffu;
  }
  int64_t ka = 0, kb = 0; /* the operands in units of 2^-24 */
  int ea, eb;
  if (!is_zero16(a)) {
    ka = unpack16(a, &ea);
    ka <<= ea + 24;
  }
  if (!is_zero16(b)) {
    kb = unpack16(b, &eb);
    kb <<= eb + 24;
  }
  int64_t s = (sa ? -ka : ka) + (sb ? -kb : kb); /* exact: |ka|, |kb| < 2^40 */
  if (s == 0) return sa == sb ? sa << 15 : zero_sum_sign(rm);
  return round16(s < 0, (u128)(s < 0 ? -s : s), -24, rm, flags);
}

uint32_t vt_f16_add(uint32_t a, uint32_t b, int rm, uint32_t *flags) {
  if (is_nan16(a) || is_nan16(b)) return nan2(a, b, flags);
  return add_core(a, b, rm, flags);
}
uint32_t vt_f16_sub(uint32_t a, uint32_t b, int rm, uint32_t *flags) {
  if (is_nan16(a) || is_nan16(b)) return nan2(a, b, flags);
  return add_core(a, b ^ SIGN16, rm, flags);
}

uint32_t vt_f16_mul(uint32_t a, uint32_t b, int rm, uint32_t *flags) {
  if (is_nan16(a) || is_nan16(b)) return nan2(a, b, flags);
  uint32_t sign = ((a ^ b) >> 15) & 1;
  if (is_inf16(a) || is_inf16(b)) {
    if (is_zero16(a) || is_zero16(b)) return invalid(flags);
    return (sign << 15) | INF16;
  }
  if (is_zero16(a) || is_zero16(b)) return sign << 15;
  int ea, eb;
  uint32_t fa = unpack16(a, &ea), fb = unpack16(b, &eb);
  return round16(sign, (u128)fa * fb, ea + eb, rm, flags);
}

uint32_t vt_f16_div(uint32_t a, uint32_t b, int rm, uint32_t *flags) {
  if (is_nan16(a) || is_nan16(b)) return nan2(a, b, flags);
  uint32_t sign = ((a ^ b) >> 15) & 1;
  if (is_inf16(a)) {
    if (is_inf16(b)) return invalid(flags);
    return (sign << 15) | INF16;
  }
  if (is_inf16(b)) return sign << 15;
  if (is_zero16(b)) {
    if (is_zero16(a)) return invalid(flags);
    *flags |= VT_FFLAG_DZ;
    return (sign << 15) | INF16;
  }
  if (is_zero16(a)) return sign << 15;
  int ea, eb;
  uint32_t fa = unpack16(a, &ea), fb = unpack16(b, &eb);
  uint64_t n = (uint64_t)fa << 50; /* quotient >= 2^39: 40+ bits above the sticky */
  uint64_t qt = n / fb, r = n % fb;
  return round16(sign, qt | (r != 0), ea - eb - 50, rm, flags);
}

static inline uint64_t isqrt64(uint64_t n) { /* n < 2^62 */
  uint64_t r = (uint64_t)sqrt((double)n);
  while (r * r > n) r--;
  while ((r + 1) * (r + 1) <= n) r++;
  return r;
}

uint32_t vt_f16_sqrt(uint32_t a, int rm, uint32_t *flags) {
  if (is_nan16(a)) return nan2(a, a, flags);
  if (is_zero16(a)) return a & 0xffffu;
  if (a & SIGN16) return invalid(flags);
  if (is_inf16(a)) return a & 0xffffu;
  int e;
  uint64_t n = unpack16(a, &e);
  if (e & 1) {
    n <<= 1;
    e -= 1;
  }
  n <<= 40; /* < 2^52; the root has >= 20 bits */
  e -= 40;
  uint64_t r = isqrt64(n);
  return round16(0, r | (r * r != n), e / 2, rm, flags);
}

uint32_t vt_f16_fma(uint32_t a, uint32_t b, uint32_t c, int rm, uint32_t *flags) {
  int inf_times_zero = (is_inf16(a) && is_zero16(b)) || (is_zero16(a) && is_inf16(b));
  if (is_nan16(a) || is_nan16(b) || is_nan16(c)) {
    if (is_snan16(a) || is_snan16(b) || is_snan16(c) || inf_times_zero) *flags |= VT_FFLAG_NV;
    return CNAN16;
  }
  if (inf_times_zero) return invalid(flags);
  uint32_t sp = ((a ^ b) >> 15) & 1, sc = (c >> 15) & 1;
  if (is_inf16(a) || is_inf16(b)) {
    if (is_inf16(c) && sc != sp) return invalid(flags);
    return (sp << 15) | INF16;
  }
  if (is_inf16(c)) return c & 0xffffu;
  if (is_zero16(a) || is_zero16(b)) {
    if (is_zero16(c)) return sc == sp ? c & 0xffffu : zero_sum_sign(rm);
    return c & 0xffffu;
  }
  int ea, eb, ec;
  uint32_t fa = unpack16(a, &ea), fb = unpack16(b, &eb);
  u128 P = (u128)fa * fb;
  int ep = ea + eb;
  if (is_zero16(c)) return round16(sp, P, ep, rm, flags);
  u128 C = unpack16(c, &ec);
  int em = ep < ec ? ep : ec;
  /* exact: P << (ep - em) < 2^56, C << (ec - em) < 2^64 */
  i128 s = (i128)(P << (ep - em)) * (sp ? -1 : 1) + (i128)(C << (ec - em)) * (sc ? -1 : 1);
  if (s == 0) return zero_sum_sign(rm);
  return round16(s < 0, (u128)(s < 0 ? -s : s), em, rm, flags);
}

static uint32_t minmax(uint32_t a, uint32_t b, int want_max, uint32_t *flags) {
  a &= 0xffffu;
  b &= 0xffffu;
  int na = is_nan16(a), nb = is_nan16(b);
  if (na || nb) {
    if (is_snan16(a) || is_snan16(b)) *flags |= VT_FFLAG_NV;
    if (na && nb) return CNAN16;
    return na ? b : a;
  }
  int a_lt_b;
  if ((a ^ b) & SIGN16)
    a_lt_b = (a & SIGN16) != 0;
  else
    a_lt_b = (a & SIGN16) ? a > b : a < b;
  return (a_lt_b != want_max) ? a : b;
}
uint32_t vt_f16_min(uint32_t a, uint32_t b, uint32_t *flags) { return minmax(a, b, 0, flags); }
uint32_t vt_f16_max(uint32_t a, uint32_t b, uint32_t *flags) { return minmax(a, b, 1, flags); }

static inline int less(uint32_t a, uint32_t b, int or_equal) {
  if (((a | b) & 0x7fffu) == 0) return or_equal;
  if (a == b) return or_equal;
  if ((a ^ b) & SIGN16) return (a & SIGN16) != 0;
  return (a & SIGN16) ? a > b : a < b;
}
int vt_f16_eq(uint32_t a, uint32_t b, uint32_t *flags) {
  a &= 0xffffu;
  b &= 0xffffu;
  if (is_nan16(a) || is_nan16(b)) {
    if (is_snan16(a) || is_snan16(b)) *flags |= VT_FFLAG_NV;
    return 0;
  }
  return a == b || ((a | b) & 0x7fffu) == 0;
}
int vt_f16_lt(uint32_t a, uint32_t b, uint32_t *flags) {
  if (is_nan16(a) || is_nan16(b)) {
    *flags |= VT_FFLAG_NV;
    return 0;
  }
  return less(a & 0xffffu, b & 0xffffu, 0);
}
int vt_f16_le(uint32_t a, uint32_t b, uint32_t *flags) {
  if (is_nan16(a) || is_nan16(b)) {
    *flags |= VT_FFLAG_NV;
    return 0;
  }
  return less(a & 0xffffu, b & 0xffffu, 1);
}

uint32_t vt_f16_classify(uint32_t a) {
  int neg = (a & SIGN16) != 0;
  int e = (int)((a >> 10) & 0x1f);
  uint32_t f = a & 0x3ffu;
  if (e == 0x1f) {
    if (f == 0) return neg ? 1u << 0 : 1u << 7;
    return (f & 0x200u) ? 1u << 9 : 1u << 8;
  }
  if (e) return neg ? 1u << 1 : 1u << 6;
  if (f) return neg ? 1u << 2 : 1u << 5;
  return neg ? 1u << 3 : 1u << 4;
}

/* ---------------- conversions ---------------- */

uint32_t vt_f16_to_f32(uint32_t a, uint32_t *flags) {
  uint32_t sign = (a & SIGN16) << 16;
  if (is_nan16(a)) {
    if (is_snan16(a)) *flags |= VT_FFLAG_NV;
    return VT_F32_CANONICAL_NAN;
  }
  if (is_inf16(a)) return sign | 0x7f800000u;
  if (is_zero16(a)) return sign;
  int e;
  uint32_t sig = unpack16(a, &e);
  int msb = 31 - __builtin_clz(sig);
  uint32_t frac = (sig << (10 - msb)) & 0x3ffu;
  return sign | ((uint32_t)(e + msb + 127) << 23) | (frac << 13);
}

static uint32_t f32_to_f16_mode(uint32_t a, int rm, uint32_t *flags) {
  uint32_t sign = a >> 31, ma = a & 0x7fffffffu;
  if (ma > 0x7f800000u) {
    if (!(a & 0x00400000u)) *flags |= VT_FFLAG_NV;
    return CNAN16;
  }
  if (ma == 0x7f800000u) return (sign << 15) | INF16;
  if (ma == 0) return sign << 15;
  int e = (int)(ma >> 23);
  uint32_t sig = (ma & 0x7fffffu) | (e ? 0x800000u : 0);
  return round16(sign, sig, (e ? e : 1) - 150, rm, flags);
}
uint32_t vt_f32_to_f16(uint32_t a, int rm, uint32_t *flags) { return f32_to_f16_mode(a, rm, flags); }
uint32_t vt_f32_to_f16_rod(uint32_t a, uint32_t *flags) { return f32_to_f16_mode(a, RM_ROD, flags); }

/* sign * sig * 2^e (sig < 2^32) rounded to an integer in [lo, hi]. */
static uint32_t to_int(uint32_t sign, uint64_t sig, int e, int rm, int64_t lo, int64_t hi,
                       uint32_t *flags) {
  int inexact = 0;
  uint64_t mag;
  if (sig == 0) {
    mag = 0;
  } else if (e >= 32) {
    mag = (uint64_t)1 << 40; /* beyond every bound */
  } else {
    mag = round_shift(sig, -e, sign, rm, &inexact);
  }
  int64_t v = sign ? -(int64_t)mag : (int64_t)mag;
  if (v > hi || v < lo) {
    *flags |= VT_FFLAG_NV;
    return (uint32_t)(v > hi ? hi : lo);
  }
  if (inexact) *flags |= VT_FFLAG_NX;
  return (uint32_t)v;
}

static void int_bounds(int bits, int is_signed, int64_t *lo, int64_t *hi) {
  if (is_signed) {
    *hi = ((int64_t)1 << (bits - 1)) - 1;
    *lo = -*hi - 1;
  } else {
    *hi = ((int64_t)1 << bits) - 1;
    *lo = 0;
  }
}
static uint32_t trunc_bits(uint32_t v, int bits) { return bits >= 32 ? v : v & ((1u << bits) - 1); }

uint32_t vt_f16_to_int(uint32_t a, int bits, int is_signed, int rm, uint32_t *flags) {
  int64_t lo, hi;
  int_bounds(bits, is_signed, &lo, &hi);
  uint32_t sign = (a >> 15) & 1, r;
  if (is_nan16(a)) {
    *flags |= VT_FFLAG_NV;
    r = (uint32_t)hi;
  } else if (is_inf16(a)) {
    *flags |= VT_FFLAG_NV;
    r = (uint32_t)(sign ? lo : hi);
  } else if (is_zero16(a)) {
    r = 0;
  } else {
    int e;
    uint32_t sig = unpack16(a, &e);
    r = to_int(sign, sig, e, rm, lo, hi, flags);
  }
  return trunc_bits(r, bits);
}

uint32_t vt_f32_to_int(uint32_t a, int bits, int is_signed, int rm, uint32_t *flags) {
  int64_t lo, hi;
  int_bounds(bits, is_signed, &lo, &hi);
  uint32_t sign = a >> 31, ma = a & 0x7fffffffu, r;
  if (ma > 0x7f800000u) {
    *flags |= VT_FFLAG_NV;
    r = (uint32_t)hi;
  } else if (ma == 0x7f800000u) {
    *flags |= VT_FFLAG_NV;
    r = (uint32_t)(sign ? lo : hi);
  } else if (ma == 0) {
    r = 0;
  } else {
    int e = (int)(ma >> 23);
    uint32_t sig = (ma & 0x7fffffu) | (e ? 0x800000u : 0);
    r = to_int(sign, sig, (e ? e : 1) - 150, rm, lo, hi, flags);
  }
  return trunc_bits(r, bits);
}

uint32_t vt_i32_to_f16(int32_t x, int rm, uint32_t *flags) {
  if (x == 0) return 0;
  uint32_t sign = x < 0;
  uint32_t m = sign ? 0u - (uint32_t)x : (uint32_t)x;
  return round16(sign, m, 0, rm, flags);
}
uint32_t vt_u32_to_f16(uint32_t x, int rm, uint32_t *flags) {
  if (x == 0) return 0;
  return round16(0, x, 0, rm, flags);
}

/* ---------------- vfrec7 / vfrsqrt7 (RVV 1.0 13.9-13.10) ---------------- */

/* normalised exponent and 10-bit fraction of a finite non-zero value; a
 * subnormal's exponent is 0 minus its fraction's leading zeros */
static inline int norm_exp_frac16(uint32_t a, uint32_t *frac) {
  int e = (int)((a >> 10) & 0x1f);
  uint32_t f = a & 0x3ffu;
  if (e) {
    *frac = f;
    return e;
  }
  int lz = __builtin_clz(f) - 22; /* leading zeros within the 10-bit field */
  *frac = (f << (lz + 1)) & 0x3ffu;
  return -lz;
}

uint32_t vt_f16_rec7(uint32_t a, int rm, uint32_t *flags) {
  uint32_t sign = a & SIGN16;
  if (is_nan16(a)) return nan2(a, a, flags);
  if (is_inf16(a)) return sign;
  if (is_zero16(a)) {
    *flags |= VT_FFLAG_DZ;
    return sign | INF16;
  }
  uint32_t frac;
  int e = norm_exp_frac16(a, &frac);
  int oe = 2 * 15 - 1 - e;
  if (oe > 30) { /* |a| < 2^-16: the estimate overflows */
    *flags |= VT_FFLAG_OF | VT_FFLAG_NX;
    int to_max = rm == VT_RM_RTZ || (rm == VT_RM_RDN && !sign) || (rm == VT_RM_RUP && sign);
    return sign | (to_max ? MAX16 : INF16);
  }
  uint32_t of = (uint32_t)vt_fp_rec7_table[frac >> 3] << 3;
  if (oe <= 0) {
    of = (of | 0x400u) >> (1 - oe);
    oe = 0;
  }
  return sign | ((uint32_t)oe << 10) | of;
}

uint32_t vt_f16_rsqrt7(uint32_t a, uint32_t *flags) {
  if (is_nan16(a)) return nan2(a, a, flags);
  if (is_zero16(a)) {
    *flags |= VT_FFLAG_DZ;
    return (a & SIGN16) | INF16;
  }
  if (a & SIGN16) return invalid(flags);
  if (is_inf16(a)) return 0;
  uint32_t frac;
  int e = norm_exp_frac16(a, &frac);
  uint32_t idx = ((uint32_t)(e & 1) << 6) | (frac >> 4);
  int oe = (3 * 15 - 1 - e) / 2; /* numerator > 0 */
  return ((uint32_t)oe << 10) | ((uint32_t)vt_fp_rsqrt7_table[idx] << 3);
}
