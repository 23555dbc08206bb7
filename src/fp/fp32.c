/* Exact RISC-V binary32 arithmetic, in software (integer arithmetic only).
 *
 * Path: every operation is computed with integers; the host FPU is not used
 * for any result that carries flags or depends on the rounding mode. So the
 * results do not depend on the host's MXCSR/fenv state, and RMM, the
 * RISC-V tininess rule and the canonical NaN need no special casing.
 *
 * Why it is exact: each operation produces its exact result as
 *     value = sig * 2^(exp - 189),  sig a 64-bit integer,
 * either exactly (add/sub/mul/fma/conversions keep every bit, or fold bits
 * shifted out below the rounding position into a "sticky" low bit) or as a
 * truncated quotient/root with a sticky bit for a non-zero remainder
 * (div/sqrt). At least 26 significant bits always sit above the sticky bit,
 * so one rounding step (round_pack) sees the exact round and sticky
 * information and rounds once, correctly, in all five modes:
 *   - overflow: after rounding with unbounded exponent (IEEE/RISC-V);
 *   - underflow: tininess detected AFTER rounding (RISC-V), UF raised only
 *     when the result is tiny and inexact; subnormals are kept (no FTZ);
 *   - any NaN result is the canonical NaN 0x7fc00000.
 * The only host library calls: sqrt() as a first guess for an integer square
 * root that is then corrected exactly with integer arithmetic, and exp() for
 * vfexp, which the Ventus spec defines as the host's (float)exp((double)x).
 * Tested against MPFR (tests/unit/test_fp32_mpfr.c, docs/fp.md). */
#include "fp/fp32.h"

#include <math.h>
#include <string.h>

#define SIGN_BIT 0x80000000u
#define EXP_OF(a) ((int)(((a) >> 23) & 0xff))
#define FRAC_OF(a) ((a) & 0x007fffffu)
#define INF_BITS 0x7f800000u
#define CNAN VT_F32_CANONICAL_NAN

static inline int is_nan(uint32_t a) { return (a & 0x7fffffffu) > INF_BITS; }
static inline int is_snan(uint32_t a) { return is_nan(a) && !(a & 0x00400000u); }
static inline int is_zero(uint32_t a) { return (a & 0x7fffffffu) == 0; }

static inline int clz32(uint32_t x) { return __builtin_clz(x); } /* x != 0 */
static inline int clz64(uint64_t x) { return __builtin_clzll(x); } /* x != 0 */

/* Shift right, OR-ing every bit shifted out into bit 0 ("jamming"). */
static inline uint64_t shr_jam64(uint64_t x, int n) {
  if (n <= 0) return x;
  if (n >= 64) return x != 0;
  return (x >> n) | ((x << (64 - n)) != 0);
}
static inline uint32_t shr_jam32(uint32_t x, int n) {
  if (n >= 32) return x != 0;
  return (x >> n) | ((x << (32 - n)) != 0);
}

/* NaN result of an operation with at least one NaN operand. */
static inline uint32_t nan2(uint32_t a, uint32_t b, uint32_t *flags) {
  if (is_snan(a) || is_snan(b)) *flags |= VT_FFLAG_NV;
  return CNAN;
}
static inline uint32_t invalid(uint32_t *flags) {
  *flags |= VT_FFLAG_NV;
  return CNAN;
}
/* An invalid conversion: NV and the saturated value r. */
static inline uint32_t invalid_cvt(uint32_t r, uint32_t *flags) {
  *flags |= VT_FFLAG_NV;
  return r;
}

/* Round and pack sign * sig * 2^(exp - 157), sig normalised to
 * [2^30, 2^31) with round/sticky information in its low 7 bits. */
static uint32_t round_pack(uint32_t sign, int exp, uint32_t sig, int rm, uint32_t *flags) {
  uint32_t inc;
  switch (rm) {
  case VT_RM_RNE:
  case VT_RM_RMM: inc = 0x40; break;
  case VT_RM_RDN: inc = sign ? 0x7f : 0; break;
  case VT_RM_RUP: inc = sign ? 0 : 0x7f; break;
  default: inc = 0; break; /* RTZ */
  }
  if ((unsigned)(exp - 1) >= 253u) {
    if (exp <= 0) {
      /* Below the normal range before rounding. Tiny after rounding unless
       * rounding to 24 bits with unbounded exponent reaches 2^-126. */
      int tiny = exp < 0 || sig + inc < 0x80000000u;
      sig = shr_jam32(sig, 1 - exp);
      exp = 1;
      if (tiny && (sig & 0x7f)) *flags |= VT_FFLAG_UF;
    } else if (exp > 254 || sig + inc >= 0x80000000u) {
      *flags |= VT_FFLAG_OF | VT_FFLAG_NX;
      return (sign << 31) | (inc ? INF_BITS : 0x7f7fffffu);
    }
  }
  uint32_t rbits = sig & 0x7f;
  if (rbits) *flags |= VT_FFLAG_NX;
  sig = (sig + inc) >> 7;
  if (rm == VT_RM_RNE && rbits == 0x40) sig &= ~1u;
  /* A carry out of the significand increments the exponent field. */
  return (sign << 31) + ((uint32_t)(exp - 1) << 23) + sig;
}

/* Round and pack sign * sig * 2^(exp - 189), any non-zero 64-bit sig. */
static uint32_t norm_round_pack(uint32_t sign, int exp, uint64_t sig, int rm, uint32_t *flags) {
  int sh = clz64(sig) - 1;
  if (sh >= 0) {
    sig <<= sh;
  } else {
    sig = (sig >> 1) | (sig & 1);
  }
  exp -= sh;
  uint32_t s32 = (uint32_t)(sig >> 32) | ((uint32_t)sig != 0);
  return round_pack(sign, exp, s32, rm, flags);
}

/* Significand with the implicit bit and the exponent of a finite non-zero
 * value: a = sig * 2^(exp - 150), subnormals given exp 1. */
static inline uint32_t unpack_sig(uint32_t a, int *exp) {
  int e = EXP_OF(a);
  if (e) {
    *exp = e;
    return FRAC_OF(a) | 0x00800000u;
  }
  *exp = 1;
  return FRAC_OF(a);
}
/* As unpack_sig, but normalised so that bit 23 is set. */
static inline uint32_t unpack_norm(uint32_t a, int *exp) {
  int e = EXP_OF(a);
  uint32_t f = FRAC_OF(a);
  if (e) {
    *exp = e;
    return f | 0x00800000u;
  }
  int sh = clz32(f) - 8;
  *exp = 1 - sh;
  return f << sh;
}

static inline uint32_t zero_sum_sign(int rm) { return rm == VT_RM_RDN ? SIGN_BIT : 0; }

/* a + b for finite or infinite non-NaN operands. */
static uint32_t add_core(uint32_t a, uint32_t b, int rm, uint32_t *flags) {
  uint32_t ma = a & 0x7fffffffu, mb = b & 0x7fffffffu;
  if (ma < mb) {
    uint32_t t = a;
    a = b;
    b = t;
    t = ma;
    ma = mb;
    mb = t;
  }
  /* now |a| >= |b| */
  int same = ((a ^ b) & SIGN_BIT) == 0;
  if (ma >= INF_BITS) {
    if (mb == INF_BITS && !same) return invalid(flags); /* inf - inf */
    return a;
  }
  if (mb == 0) {
    if (ma == 0 && !same) return zero_sum_sign(rm); /* +0 + -0 */
    return a;
  }
  if (ma == mb && !same) return zero_sum_sign(rm); /* x - x */
  int ea, eb;
  uint32_t fa = unpack_sig(a, &ea), fb = unpack_sig(b, &eb);
  uint64_t A = (uint64_t)fa << 38;
  uint64_t B = shr_jam64((uint64_t)fb << 38, ea - eb);
  /* |a| > |b| strictly here, so a difference is positive. B loses bits
   * (into its sticky bit) only when ea - eb > 38; then A - B > 2^60 still
   * has 60 bits above the sticky bit, so rounding sees the exact value's
   * round and sticky information. */
  uint64_t S = same ? A + B : A - B;
  return norm_round_pack(a >> 31, ea + 1, S, rm, flags);
}

uint32_t vt_f32_add(uint32_t a, uint32_t b, int rm, uint32_t *flags) {
  if (is_nan(a) || is_nan(b)) return nan2(a, b, flags);
  return add_core(a, b, rm, flags);
}

uint32_t vt_f32_sub(uint32_t a, uint32_t b, int rm, uint32_t *flags) {
  if (is_nan(a) || is_nan(b)) return nan2(a, b, flags);
  return add_core(a, b ^ SIGN_BIT, rm, flags);
}

uint32_t vt_f32_mul(uint32_t a, uint32_t b, int rm, uint32_t *flags) {
  if (is_nan(a) || is_nan(b)) return nan2(a, b, flags);
  uint32_t sign = (a ^ b) & SIGN_BIT;
  uint32_t ma = a & 0x7fffffffu, mb = b & 0x7fffffffu;
  if (ma == INF_BITS || mb == INF_BITS) {
    if (ma == 0 || mb == 0) return invalid(flags);
    return sign | INF_BITS;
  }
  if (ma == 0 || mb == 0) return sign;
  int ea, eb;
  uint32_t fa = unpack_sig(a, &ea), fb = unpack_sig(b, &eb);
  /* a*b = fa*fb * 2^(ea+eb-300), exact in 48 bits */
  return norm_round_pack(sign >> 31, ea + eb - 111, (uint64_t)fa * fb, rm, flags);
}

uint32_t vt_f32_div(uint32_t a, uint32_t b, int rm, uint32_t *flags) {
  if (is_nan(a) || is_nan(b)) return nan2(a, b, flags);
  uint32_t sign = (a ^ b) & SIGN_BIT;
  uint32_t ma = a & 0x7fffffffu, mb = b & 0x7fffffffu;
  if (ma == INF_BITS) {
    if (mb == INF_BITS) return invalid(flags);
    return sign | INF_BITS;
  }
  if (mb == INF_BITS) return sign;
  if (mb == 0) {
    if (ma == 0) return invalid(flags);
    *flags |= VT_FFLAG_DZ;
    return sign | INF_BITS;
  }
  if (ma == 0) return sign;
  int ea, eb;
  uint32_t fa = unpack_norm(a, &ea), fb = unpack_norm(b, &eb);
  /* fa, fb in [2^23, 2^24): the quotient has 39 or 40 bits. */
  uint64_t n = (uint64_t)fa << 39;
  uint64_t q = n / fb, r = n % fb;
  return norm_round_pack(sign >> 31, ea - eb + 150, q | (r != 0), rm, flags);
}

/* floor(sqrt(n)) for n < 2^62: a floating-point guess corrected exactly. */
static inline uint64_t isqrt64(uint64_t n) {
  uint64_t r = (uint64_t)sqrt((double)n);
  while (r * r > n) r--;
  while ((r + 1) * (r + 1) <= n) r++;
  return r;
}

uint32_t vt_f32_sqrt(uint32_t a, int rm, uint32_t *flags) {
  if (is_nan(a)) return nan2(a, a, flags);
  if (is_zero(a)) return a;
  if (a & SIGN_BIT) return invalid(flags);
  if (a == INF_BITS) return a;
  int ea;
  uint32_t fa = unpack_norm(a, &ea);
  int e = ea - 150; /* a = fa * 2^e */
  if (e & 1) {
    fa <<= 1;
    e -= 1;
  }
  uint64_t n = (uint64_t)fa << 36; /* < 2^61 */
  uint64_t r = isqrt64(n);
  /* sqrt(a) = sqrt(n) * 2^(e/2 - 18); r has 30 or 31 bits */
  return norm_round_pack(0, e / 2 + 171, r | (r * r != n), rm, flags);
}

uint32_t vt_f32_fma(uint32_t a, uint32_t b, uint32_t c, int rm, uint32_t *flags) {
  uint32_t ma = a & 0x7fffffffu, mb = b & 0x7fffffffu, mc = c & 0x7fffffffu;
  int inf_times_zero = (ma == INF_BITS && mb == 0) || (ma == 0 && mb == INF_BITS);
  if (is_nan(a) || is_nan(b) || is_nan(c)) {
    if (is_snan(a) || is_snan(b) || is_snan(c) || inf_times_zero) *flags |= VT_FFLAG_NV;
    return CNAN;
  }
  if (inf_times_zero) return invalid(flags);
  uint32_t sp = (a ^ b) & SIGN_BIT;
  if (ma == INF_BITS || mb == INF_BITS) {
    if (mc == INF_BITS && (c & SIGN_BIT) != sp) return invalid(flags);
    return sp | INF_BITS;
  }
  if (mc == INF_BITS) return c;
  if (ma == 0 || mb == 0) {
    /* exact zero product: the result is c, or a signed zero sum */
    if (mc == 0) return (c & SIGN_BIT) == sp ? c : zero_sum_sign(rm);
    return c;
  }
  int ea, eb;
  uint32_t fa = unpack_sig(a, &ea), fb = unpack_sig(b, &eb);
  /* product P * 2^(ep - 189) with P normalised to bit 61 */
  uint64_t P = (uint64_t)fa * fb;
  int sh = clz64(P) - 2;
  P <<= sh;
  int ep = ea + eb - 111 - sh;
  if (mc == 0) return norm_round_pack(sp >> 31, ep, P, rm, flags);
  int ec;
  uint32_t fc = unpack_norm(c, &ec);
  uint64_t C = (uint64_t)fc << 38; /* bit 61 set: c = C * 2^(ec + 1 - 189) */
  ec += 1;
  uint32_t sc = c & SIGN_BIT;
  /* order the magnitudes: X >= Y */
  uint64_t X, Y;
  int ex, d;
  uint32_t sx;
  if (ep > ec || (ep == ec && P >= C)) {
    X = P, ex = ep, sx = sp, Y = C, d = ep - ec;
  } else {
    X = C, ex = ec, sx = sc, Y = P, d = ec - ep;
  }
  Y = shr_jam64(Y, d);
  uint64_t S;
  if (sp == sc) {
    S = X + Y; /* < 2^63 */
  } else {
    /* Y is jammed only when d > 14 (P has 48 bits above bit 13) or d > 38
     * (C): then X - Y still has >= 34 significant bits above the sticky. */
    S = X - Y;
    if (S == 0) return zero_sum_sign(rm);
  }
  return norm_round_pack(sx >> 31, ex, S, rm, flags);
}

/* RISC-V 2.2 min/max. */
static uint32_t minmax(uint32_t a, uint32_t b, int want_max, uint32_t *flags) {
  int na = is_nan(a), nb = is_nan(b);
  if (na || nb) {
    if (is_snan(a) || is_snan(b)) *flags |= VT_FFLAG_NV;
    if (na && nb) return CNAN;
    return na ? b : a;
  }
  /* total order on non-NaN values with -0 < +0: compare as sign-magnitude */
  int a_lt_b;
  if ((a ^ b) & SIGN_BIT) {
    a_lt_b = (a & SIGN_BIT) != 0;
  } else {
    a_lt_b = (a & SIGN_BIT) ? a > b : a < b;
  }
  return (a_lt_b != want_max) ? a : b;
}
uint32_t vt_f32_min(uint32_t a, uint32_t b, uint32_t *flags) { return minmax(a, b, 0, flags); }
uint32_t vt_f32_max(uint32_t a, uint32_t b, uint32_t *flags) { return minmax(a, b, 1, flags); }

/* a < b (or a <= b) for non-NaN values, +0 == -0. */
static inline int less(uint32_t a, uint32_t b, int or_equal) {
  if (((a | b) & 0x7fffffffu) == 0) return or_equal; /* both zero */
  if (a == b) return or_equal;
  if ((a ^ b) & SIGN_BIT) return (a & SIGN_BIT) != 0;
  return (a & SIGN_BIT) ? a > b : a < b;
}

int vt_f32_eq(uint32_t a, uint32_t b, uint32_t *flags) {
  if (is_nan(a) || is_nan(b)) {
    if (is_snan(a) || is_snan(b)) *flags |= VT_FFLAG_NV;
    return 0;
  }
  return a == b || ((a | b) & 0x7fffffffu) == 0;
}
int vt_f32_lt(uint32_t a, uint32_t b, uint32_t *flags) {
  if (is_nan(a) || is_nan(b)) {
    *flags |= VT_FFLAG_NV;
    return 0;
  }
  return less(a, b, 0);
}
int vt_f32_le(uint32_t a, uint32_t b, uint32_t *flags) {
  if (is_nan(a) || is_nan(b)) {
    *flags |= VT_FFLAG_NV;
    return 0;
  }
  return less(a, b, 1);
}

/* |a| rounded to an integer (a finite, |a| < 2^32); *inexact set if not exact. */
static uint64_t round_to_int(uint32_t a, int rm, int *inexact) {
  int e;
  uint32_t sign = a >> 31;
  if (is_zero(a)) {
    *inexact = 0;
    return 0;
  }
  uint64_t f = unpack_sig(a, &e);
  int sh = 150 - e; /* |a| = f * 2^-sh */
  if (sh <= 0) {
    *inexact = 0;
    return f << -sh;
  }
  uint64_t ip, rem, half;
  if (sh > 40) {
    ip = 0;
    rem = 1; /* non-zero, far below one half */
    half = 2;
  } else {
    ip = f >> sh;
    rem = f & ((1ull << sh) - 1);
    half = 1ull << (sh - 1);
  }
  *inexact = rem != 0;
  if (!rem) return ip;
  switch (rm) {
  case VT_RM_RNE: return ip + (rem > half || (rem == half && (ip & 1)));
  case VT_RM_RMM: return ip + (rem >= half);
  case VT_RM_RDN: return ip + sign;
  case VT_RM_RUP: return ip + !sign;
  default: return ip;
  }
}

uint32_t vt_f32_to_i32(uint32_t a, int rm, uint32_t *flags) {
  if (is_nan(a)) return invalid_cvt(0x7fffffffu, flags);
  uint32_t sign = a & SIGN_BIT;
  if (EXP_OF(a) >= 127 + 32) /* |a| >= 2^32, or infinite */
    return invalid_cvt(sign ? 0x80000000u : 0x7fffffffu, flags);
  int inexact;
  uint64_t m = round_to_int(a, rm, &inexact);
  if (sign ? m > 0x80000000u : m > 0x7fffffffu)
    return invalid_cvt(sign ? 0x80000000u : 0x7fffffffu, flags);
  if (inexact) *flags |= VT_FFLAG_NX;
  return sign ? (uint32_t)(0u - (uint32_t)m) : (uint32_t)m;
}

uint32_t vt_f32_to_u32(uint32_t a, int rm, uint32_t *flags) {
  if (is_nan(a)) return invalid_cvt(0xffffffffu, flags);
  uint32_t sign = a & SIGN_BIT;
  if (EXP_OF(a) >= 127 + 32) return invalid_cvt(sign ? 0u : 0xffffffffu, flags);
  int inexact;
  uint64_t m = round_to_int(a, rm, &inexact);
  if (sign ? m != 0 : m > 0xffffffffu) return invalid_cvt(sign ? 0u : 0xffffffffu, flags);
  if (inexact) *flags |= VT_FFLAG_NX;
  return (uint32_t)m;
}

uint32_t vt_i32_to_f32(int32_t x, int rm, uint32_t *flags) {
  if (x == 0) return 0;
  uint32_t sign = x < 0;
  uint32_t m = sign ? 0u - (uint32_t)x : (uint32_t)x;
  return norm_round_pack(sign, 189, m, rm, flags);
}

uint32_t vt_u32_to_f32(uint32_t x, int rm, uint32_t *flags) {
  if (x == 0) return 0;
  return norm_round_pack(0, 189, x, rm, flags);
}

uint32_t vt_f32_classify(uint32_t a) {
  int neg = (a >> 31) != 0;
  int e = EXP_OF(a);
  uint32_t f = FRAC_OF(a);
  if (e == 0xff) {
    if (f == 0) return neg ? 1u << 0 : 1u << 7;
    return (f & 0x00400000u) ? 1u << 9 : 1u << 8;
  }
  if (e) return neg ? 1u << 1 : 1u << 6;
  if (f) return neg ? 1u << 2 : 1u << 5;
  return neg ? 1u << 3 : 1u << 4;
}

/* RVV 1.0 vfrec7 table, indexed by the 7 high fraction bits. */
const uint8_t vt_fp_rec7_table[128] = {
    127, 125, 123, 121, 119, 117, 116, 114, 112, 110, 109, 107, 105, 104, 102, 100,
    99,  97,  96,  94,  93,  91,  90,  88,  87,  85,  84,  83,  81,  80,  79,  77,
    76,  75,  74,  72,  71,  70,  69,  68,  66,  65,  64,  63,  62,  61,  60,  59,
    58,  57,  56,  55,  54,  53,  52,  51,  50,  49,  48,  47,  46,  45,  44,  43,
    42,  41,  40,  40,  39,  38,  37,  36,  35,  35,  34,  33,  32,  31,  31,  30,
    29,  28,  28,  27,  26,  25,  25,  24,  23,  23,  22,  21,  21,  20,  19,  19,
    18,  17,  17,  16,  15,  15,  14,  14,  13,  12,  12,  11,  11,  10,  9,   9,
    8,   8,   7,   7,   6,   5,   5,   4,   4,   3,   3,   2,   2,   1,   1,   0};

/* RVV 1.0 vfrsqrt7 table, indexed by {exponent bit 0, 6 high fraction bits}. */
const uint8_t vt_fp_rsqrt7_table[128] = {
    52,  51,  50,  48,  47,  46,  44,  43,  42,  41,  40,  39,  38,  36,  35,  34,
    33,  32,  31,  30,  30,  29,  28,  27,  26,  25,  24,  23,  23,  22,  21,  20,
    19,  19,  18,  17,  16,  16,  15,  14,  14,  13,  12,  12,  11,  10,  10,  9,
    9,   8,   7,   7,   6,   6,   5,   4,   4,   3,   3,   2,   2,   1,   1,   0,
    127, 125, 123, 121, 119, 118, 116, 114, 113, 111, 109, 108, 106, 105, 103, 102,
    100, 99,  97,  96,  95,  93,  92,  91,  90,  88,  87,  86,  85,  84,  83,  82,
    80,  79,  78,  77,  76,  75,  74,  73,  72,  71,  70,  70,  69,  68,  67,  66,
    65,  64,  63,  63,  62,  61,  60,  59,  59,  58,  57,  56,  56,  55,  54,  53};

/* Normalised exponent and 23-bit fraction (leading one dropped) of a
 * finite non-zero value, per the RVV spec: a subnormal's exponent is
 * 0 minus the number of leading zeros of its fraction. */
static inline int norm_exp_frac(uint32_t a, uint32_t *frac) {
  int e = EXP_OF(a);
  uint32_t f = FRAC_OF(a);
  if (e) {
    *frac = f;
    return e;
  }
  int lz = clz32(f) - 9; /* leading zeros within the 23-bit field */
  *frac = (f << (lz + 1)) & 0x007fffffu;
  return -lz;
}

uint32_t vt_f32_rec7(uint32_t a, int rm, uint32_t *flags) {
  uint32_t sign = a & SIGN_BIT;
  uint32_t ma = a & 0x7fffffffu;
  if (is_nan(a)) return nan2(a, a, flags);
  if (ma == INF_BITS) return sign;
  if (ma == 0) {
    *flags |= VT_FFLAG_DZ;
    return sign | INF_BITS;
  }
  uint32_t frac;
  int e = norm_exp_frac(a, &frac);
  int oe = 2 * 127 - 1 - e;
  if (oe > 254) {
    /* |a| < 2^-128: the estimate overflows */
    *flags |= VT_FFLAG_OF | VT_FFLAG_NX;
    int to_max = rm == VT_RM_RTZ || (rm == VT_RM_RDN && !sign) || (rm == VT_RM_RUP && sign);
    return sign | (to_max ? 0x7f7fffffu : INF_BITS);
  }
  uint32_t of = (uint32_t)vt_fp_rec7_table[frac >> 16] << 16;
  if (oe <= 0) { /* subnormal result: 1.table shifted right by 1 - oe */
    of = (of | 0x00800000u) >> (1 - oe);
    oe = 0;
  }
  return sign | ((uint32_t)oe << 23) | of;
}

uint32_t vt_f32_rsqrt7(uint32_t a, uint32_t *flags) {
  if (is_nan(a)) return nan2(a, a, flags);
  if (is_zero(a)) {
    *flags |= VT_FFLAG_DZ;
    return (a & SIGN_BIT) | INF_BITS;
  }
  if (a & SIGN_BIT) return invalid(flags);
  if (a == INF_BITS) return 0;
  uint32_t frac;
  int e = norm_exp_frac(a, &frac);
  uint32_t idx = ((uint32_t)(e & 1) << 6) | (frac >> 17);
  int oe = (3 * 127 - 1 - e) / 2; /* numerator > 0: truncation is floor */
  return ((uint32_t)oe << 23) | ((uint32_t)vt_fp_rsqrt7_table[idx] << 16);
}

uint32_t vt_f32_exp_ventus(uint32_t a) {
  float f;
  memcpy(&f, &a, sizeof f);
  float r = (float)exp((double)f);
  uint32_t out;
  memcpy(&out, &r, sizeof out);
  return out;
}
