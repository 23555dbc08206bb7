/* Exact RISC-V binary64 arithmetic, in software (integer arithmetic only).
 *
 * A finite binary64 value is sig * 2^e with a 53-bit integer sig (the
 * hidden bit included) and e in [-1074, 971]. Each operation forms its exact
 * result as an integer times a power of two, or for div/sqrt a truncated
 * quotient/root with a sticky bit for a non-zero remainder, with at least 55
 * significant bits above any sticky bit; vt_fp_round_pack (src/fp/fp_round.h)
 * then rounds once in every mode, with overflow and tininess after rounding:
 *  - add/sub: both significands at bit 62 of a 64-bit word, the smaller one
 *    shifted with jamming; the larger one has ten zero low bits, so a jammed
 *    subtrahend (only when it lies > 10 bits lower) rounds like the exact one
 *    and the difference keeps > 60 bits above the sticky bit;
 *  - mul: the 106-bit product, exact in a 128-bit integer;
 *  - fma: product and addend normalised to bit 125 of 128-bit integers, the
 *    smaller one jammed (same argument: the larger one has >= 20 zero low
 *    bits, a jammed one lies > 20 bits lower), so one rounding;
 *  - div: a 128/64-bit division giving a 63- or 64-bit quotient, the
 *    remainder as the sticky bit;
 *  - sqrt: a 61/62-bit integer square root of a 124-bit integer (a double
 *    sqrt() first guess, one Newton step in integers, an exact correction),
 *    "remainder non-zero" as the sticky bit.
 * NaN results are the canonical NaN. Tested against MPFR in
 * tests/unit/test_fp64_mpfr.c (docs/fp.md). */
#include "fp/fp64.h"

#include <math.h>

#include "fp/fp_round.h"

#define SIGN VT_F64_SIGN
#define MAG 0x7fffffffffffffffull
#define INF 0x7ff0000000000000ull
#define FRAC 0x000fffffffffffffull
#define HIDDEN 0x0010000000000000ull
#define CNAN VT_F64_CANONICAL_NAN
#define F64 VT_FMT_F64

static inline int is_nan(uint64_t a) { return (a & MAG) > INF; }
static inline int is_snan(uint64_t a) { return is_nan(a) && !(a & 0x0008000000000000ull); }
static inline int is_inf(uint64_t a) { return (a & MAG) == INF; }
static inline int is_zero(uint64_t a) { return (a & MAG) == 0; }
static inline int biased_exp(uint64_t a) { return (int)((a >> 52) & 0x7ff); }

static inline uint64_t nan2(uint64_t a, uint64_t b, uint32_t *flags) {
  if (is_snan(a) || is_snan(b)) *flags |= VT_FFLAG_NV;
  return CNAN;
}
static inline uint64_t invalid(uint32_t *flags) {
  *flags |= VT_FFLAG_NV;
  return CNAN;
}
static inline uint64_t zero_sum_sign(int rm) { return rm == VT_RM_RDN ? SIGN : 0; }

/* Finite non-zero a = sig * 2^e (subnormals: e = -1074, sig < 2^52). */
static inline uint64_t unpack(uint64_t a, int *e) {
  int be = biased_exp(a);
  *e = (be ? be : 1) - 1075;
  return be ? (a & FRAC) | HIDDEN : a & FRAC;
}
/* As unpack, normalised to sig in [2^52, 2^53). */
static inline uint64_t unpack_norm(uint64_t a, int *e) {
  uint64_t sig = unpack(a, e);
  int sh = vt_clz64(sig) - 11;
  *e -= sh;
  return sig << sh;
}

/* a + b, neither a NaN. */
static uint64_t add_core(uint64_t a, uint64_t b, int rm, uint32_t *flags) {
  uint64_t ma = a & MAG, mb = b & MAG;
  if (ma < mb) {
    uint64_t t = a;
    a = b;
    b = t;
    t = ma;
    ma = mb;
    mb = t;
  }
  /* now |a| >= |b| */
  int same = ((a ^ b) & SIGN) == 0;
  if (ma >= INF) {
    if (mb == INF && !same) return invalid(flags); /* inf - inf */
    return a;
  }
  if (mb == 0) {
    if (ma == 0 && !same) return zero_sum_sign(rm); /* +0 + -0 */
    return a;
  }
  if (ma == mb && !same) return zero_sum_sign(rm); /* x - x */
  int ea, eb;
  uint64_t fa = unpack(a, &ea), fb = unpack(b, &eb);
  uint64_t A = fa << 10;
  uint64_t B = vt_shr_jam64(fb << 10, ea - eb);
  uint64_t S = same ? A + B : A - B; /* > 0: |a| > |b| strictly */
  return vt_fp_round_u64(F64, (uint32_t)(a >> 63), S, ea - 10, rm, flags);
}

uint64_t vt_f64_add(uint64_t a, uint64_t b, int rm, uint32_t *flags) {
  if (is_nan(a) || is_nan(b)) return nan2(a, b, flags);
  return add_core(a, b, rm, flags);
}
uint64_t vt_f64_sub(uint64_t a, uint64_t b, int rm, uint32_t *flags) {
  if (is_nan(a) || is_nan(b)) return nan2(a, b, flags);
  return add_core(a, b ^ SIGN, rm, flags);
}

uint64_t vt_f64_mul(uint64_t a, uint64_t b, int rm, uint32_t *flags) {
  if (is_nan(a) || is_nan(b)) return nan2(a, b, flags);
  uint64_t sign = (a ^ b) & SIGN;
  if (is_inf(a) || is_inf(b)) {
    if (is_zero(a) || is_zero(b)) return invalid(flags);
    return sign | INF;
  }
  if (is_zero(a) || is_zero(b)) return sign;
  int ea, eb;
  uint64_t fa = unpack(a, &ea), fb = unpack(b, &eb);
  return vt_fp_round_u128(F64, (uint32_t)(sign >> 63), (vt_u128)fa * fb, ea + eb, rm, flags);
}

uint64_t vt_f64_div(uint64_t a, uint64_t b, int rm, uint32_t *flags) {
  if (is_nan(a) || is_nan(b)) return nan2(a, b, flags);
  uint64_t sign = (a ^ b) & SIGN;
  if (is_inf(a)) {
    if (is_inf(b)) return invalid(flags);
    return sign | INF;
  }
  if (is_inf(b)) return sign;
  if (is_zero(b)) {
    if (is_zero(a)) return invalid(flags);
    *flags |= VT_FFLAG_DZ;
    return sign | INF;
  }
  if (is_zero(a)) return sign;
  int ea, eb;
  uint64_t fa = unpack_norm(a, &ea), fb = unpack_norm(b, &eb);
  /* fa, fb in [2^52, 2^53): fa * 2^63 / fb lies in (2^62, 2^64), and the
   * dividend's high word is below the divisor (one hardware division). */
  vt_u128 n = (vt_u128)fa << 63;
  uint64_t q = (uint64_t)(n / fb), r = (uint64_t)(n % fb);
  return vt_fp_round_u64(F64, (uint32_t)(sign >> 63), q | (r != 0), ea - eb - 63, rm, flags);
}

/* floor(sqrt(n)) for n in [2^122, 2^124), given sqrt(n) ~ guess with a
 * relative error far below 2^-40. */
static uint64_t isqrt124(vt_u128 n, uint64_t guess) {
  /* One Newton step from any positive guess gives a value >= floor(sqrt(n))
   * (AM-GM), here within 1 of it; n / guess < 2^64 since n < 2^124 and
   * guess > 2^60. */
  uint64_t r = (uint64_t)(((vt_u128)guess + n / guess) >> 1);
  while ((vt_u128)r * r > n) r--;
  while ((vt_u128)(r + 1) * (r + 1) <= n) r++;
  return r;
}

uint64_t vt_f64_sqrt(uint64_t a, int rm, uint32_t *flags) {
  if (is_nan(a)) return nan2(a, a, flags);
  if (is_zero(a)) return a;
  if (a & SIGN) return invalid(flags);
  if (is_inf(a)) return a;
  int e;
  uint64_t f = unpack_norm(a, &e); /* a = f * 2^e, f in [2^52, 2^53) */
  if (e & 1) {
    f <<= 1;
    e -= 1;
  }
  vt_u128 n = (vt_u128)f << 70; /* [2^122, 2^124): the root has 61 or 62 bits */
  uint64_t guess = (uint64_t)(sqrt((double)f) * 34359738368.0); /* sqrt(f) * 2^35 */
  uint64_t r = isqrt124(n, guess);
  int sticky = (vt_u128)r * r != n;
  return vt_fp_round_u64(F64, 0, r | (uint64_t)sticky, (e - 70) / 2, rm, flags);
}

/* fma for finite non-zero a*b and finite c (c may be zero). */
static uint64_t fma_finite(uint64_t a, uint64_t b, uint64_t c, int rm, uint32_t *flags) {
  uint32_t sp = (uint32_t)((a ^ b) >> 63), sc = (uint32_t)(c >> 63);
  int ea, eb, ec;
  uint64_t fa = unpack(a, &ea), fb = unpack(b, &eb);
  vt_u128 P = (vt_u128)fa * fb;
  int ep = ea + eb;
  if (is_zero(c)) return vt_fp_round_u128(F64, sp, P, ep, rm, flags);
  int sh = vt_clz128(P) - 2; /* P to [2^125, 2^126) */
  P <<= sh;
  ep -= sh;
  vt_u128 C = (vt_u128)unpack_norm(c, &ec) << 73; /* also [2^125, 2^126) */
  ec -= 73;
  vt_u128 X, Y;
  int ex, d;
  uint32_t sx;
  if (ep > ec || (ep == ec && P >= C)) {
    X = P, ex = ep, sx = sp, Y = C, d = ep - ec;
  } else {
    X = C, ex = ec, sx = sc, Y = P, d = ec - ep;
  }
  Y = vt_shr_jam128(Y, d);
  vt_u128 S;
  if (sp == sc) {
    S = X + Y; /* < 2^127 */
  } else {
    S = X - Y;
    if (S == 0) return zero_sum_sign(rm);
  }
  return vt_fp_round_u128(F64, sx, S, ex, rm, flags);
}

uint64_t vt_f64_fma(uint64_t a, uint64_t b, uint64_t c, int rm, uint32_t *flags) {
  int inf_times_zero = (is_inf(a) && is_zero(b)) || (is_zero(a) && is_inf(b));
  if (is_nan(a) || is_nan(b) || is_nan(c)) {
    if (is_snan(a) || is_snan(b) || is_snan(c) || inf_times_zero) *flags |= VT_FFLAG_NV;
    return CNAN;
  }
  if (inf_times_zero) return invalid(flags);
  uint64_t sp = (a ^ b) & SIGN;
  if (is_inf(a) || is_inf(b)) {
    if (is_inf(c) && (c & SIGN) != sp) return invalid(flags);
    return sp | INF;
  }
  if (is_inf(c)) return c;
  if (is_zero(a) || is_zero(b)) {
    /* exact zero product: the result is c, or a signed zero sum */
    if (is_zero(c)) return (c & SIGN) == sp ? c : zero_sum_sign(rm);
    return c;
  }
  return fma_finite(a, b, c, rm, flags);
}

/* RISC-V 2.2 min/max. */
static uint64_t minmax(uint64_t a, uint64_t b, int want_max, uint32_t *flags) {
  int na = is_nan(a), nb = is_nan(b);
  if (na || nb) {
    if (is_snan(a) || is_snan(b)) *flags |= VT_FFLAG_NV;
    if (na && nb) return CNAN;
    return na ? b : a;
  }
  /* total order on non-NaN values with -0 < +0: compare as sign-magnitude */
  int a_lt_b;
  if ((a ^ b) & SIGN)
    a_lt_b = (a & SIGN) != 0;
  else
    a_lt_b = (a & SIGN) ? a > b : a < b;
  return (a_lt_b != want_max) ? a : b;
}
uint64_t vt_f64_min(uint64_t a, uint64_t b, uint32_t *flags) { return minmax(a, b, 0, flags); }
uint64_t vt_f64_max(uint64_t a, uint64_t b, uint32_t *flags) { return minmax(a, b, 1, flags); }

/* a < b (or a <= b) for non-NaN values, +0 == -0. */
static inline int less(uint64_t a, uint64_t b, int or_equal) {
  if (((a | b) & MAG) == 0 || a == b) return or_equal;
  if ((a ^ b) & SIGN) return (a & SIGN) != 0;
  return (a & SIGN) ? a > b : a < b;
}
int vt_f64_eq(uint64_t a, uint64_t b, uint32_t *flags) {
  if (is_nan(a) || is_nan(b)) {
    if (is_snan(a) || is_snan(b)) *flags |= VT_FFLAG_NV;
    return 0;
  }
  return a == b || ((a | b) & MAG) == 0;
}
int vt_f64_lt(uint64_t a, uint64_t b, uint32_t *flags) {
  if (is_nan(a) || is_nan(b)) {
    *flags |= VT_FFLAG_NV;
    return 0;
  }
  return less(a, b, 0);
}
int vt_f64_le(uint64_t a, uint64_t b, uint32_t *flags) {
  if (is_nan(a) || is_nan(b)) {
    *flags |= VT_FFLAG_NV;
    return 0;
  }
  return less(a, b, 1);
}

uint32_t vt_f64_classify(uint64_t a) {
  int neg = (a >> 63) != 0;
  int be = biased_exp(a);
  uint64_t f = a & FRAC;
  if (be == 0x7ff) {
    if (f == 0) return neg ? 1u << 0 : 1u << 7;
    return (f & 0x0008000000000000ull) ? 1u << 9 : 1u << 8;
  }
  if (be) return neg ? 1u << 1 : 1u << 6;
  if (f) return neg ? 1u << 2 : 1u << 5;
  return neg ? 1u << 3 : 1u << 4;
}

/* ---------------- vfrec7 / vfrsqrt7 (RVV 1.0 sections 13.9, 13.10) ---------------- */

/* Normalised exponent and 52-bit fraction (leading one dropped) of a finite
 * non-zero value; a subnormal's exponent is 0 minus the number of leading
 * zeros of its fraction field. */
static inline int norm_exp_frac(uint64_t a, uint64_t *frac) {
  int be = biased_exp(a);
  uint64_t f = a & FRAC;
  if (be) {
    *frac = f;
    return be;
  }
  int lz = vt_clz64(f) - 12; /* leading zeros within the 52-bit field */
  *frac = (f << (lz + 1)) & FRAC;
  return -lz;
}

uint64_t vt_f64_rec7(uint64_t a, int rm, uint32_t *flags) {
  uint64_t sign = a & SIGN;
  if (is_nan(a)) return nan2(a, a, flags);
  if (is_inf(a)) return sign;
  if (is_zero(a)) {
    *flags |= VT_FFLAG_DZ;
    return sign | INF;
  }
  uint64_t frac;
  int e = norm_exp_frac(a, &frac);
  int oe = 2 * 1023 - 1 - e;
  if (oe > 2046) { /* |a| < 2^-1024: the estimate overflows */
    *flags |= VT_FFLAG_OF | VT_FFLAG_NX;
    int to_max = rm == VT_RM_RTZ || (rm == VT_RM_RDN && !sign) || (rm == VT_RM_RUP && sign);
    return sign | (to_max ? INF - 1 : INF);
  }
  uint64_t of = (uint64_t)vt_fp_rec7_table[frac >> 45] << 45;
  if (oe <= 0) { /* subnormal result: 1.table shifted right by 1 - oe */
    of = (of | HIDDEN) >> (1 - oe);
    oe = 0;
  }
  return sign | ((uint64_t)oe << 52) | of;
}

uint64_t vt_f64_rsqrt7(uint64_t a, uint32_t *flags) {
  if (is_nan(a)) return nan2(a, a, flags);
  if (is_zero(a)) {
    *flags |= VT_FFLAG_DZ;
    return (a & SIGN) | INF;
  }
  if (a & SIGN) return invalid(flags);
  if (is_inf(a)) return 0;
  uint64_t frac;
  int e = norm_exp_frac(a, &frac);
  uint32_t idx = ((uint32_t)(e & 1) << 6) | (uint32_t)(frac >> 46);
  int oe = (3 * 1023 - 1 - e) / 2; /* numerator > 0: truncation is floor */
  return ((uint64_t)oe << 52) | ((uint64_t)vt_fp_rsqrt7_table[idx] << 45);
}
