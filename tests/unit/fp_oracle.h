/* MPFR oracle for RISC-V floating point in any binary format (binary64,
 * binary32, binary16, bfloat16), used by test_fp64_mpfr.c and
 * test_bf16_mpfr.c. The method is the one of test_fp32_mpfr.c (docs/fp.md),
 * written for a format given by its precision p and exponent range:
 *  - RNE/RTZ/RDN/RUP: the MPFR operation rounded to p bits with MPFR's
 *    default (huge) exponent range, then mpfr_check_range and
 *    mpfr_subnormalize in the format's range (emin = 3 - emax - p,
 *    emax + 1 in MPFR's convention) - MPFR's documented IEEE emulation.
 *    NX = non-zero final ternary value, OF = MPFR's overflow flag,
 *    DZ = MPFR's divide-by-zero flag.
 *  - UF: RISC-V tininess after rounding, computed directly: the p-bit
 *    result with unbounded exponent (the first step above) is non-zero and
 *    below 2^(1-emax) in magnitude; UF = tiny && inexact.
 *  - RMM: the exact result rounded "to odd" at 128 bits (RNDZ, last bit
 *    forced to 1 when inexact), its two neighbours in the format (RNDZ and
 *    RNDA, range-checked and subnormalized) and their midpoint (past the
 *    largest finite value: largest + half an ulp); at or above the midpoint
 *    the away neighbour wins.
 *  - NV: a signalling NaN operand, a NaN result from non-NaN operands,
 *    fma(inf, 0, c). NaN results are the format's canonical NaN.
 * Every MPFR variable is used only inside the exponent range it was
 * computed in (MPFR leaves other uses undefined). Expected values never
 * come from the code under test. */
#ifndef VT_TEST_FP_ORACLE_H
#define VT_TEST_FP_ORACLE_H
#include <stdint.h> /* before mpfr.h: enables the intmax_t functions */

#include <mpfr.h>
#include <stdlib.h>

#include "fp/fp32.h" /* VT_RM_*, VT_FFLAG_* */

enum { NX = VT_FFLAG_NX, UF = VT_FFLAG_UF, OF = VT_FFLAG_OF, DZ = VT_FFLAG_DZ, NV = VT_FFLAG_NV };
static const char *const rm_name[5] = {"RNE", "RTZ", "RDN", "RUP", "RMM"};

/* A binary format: precision (hidden bit included), emax (= bias), total
 * width in bits. */
typedef struct ofmt {
  int p, emax, width;
} ofmt;
static const ofmt O_F64 = {53, 1023, 64}, O_F32 = {24, 127, 32}, O_F16 = {11, 15, 16},
                  O_BF16 = {8, 127, 16};

static inline uint64_t of_sign(ofmt f) { return (uint64_t)1 << (f.width - 1); }
static inline uint64_t of_inf(ofmt f) { return (uint64_t)(2 * f.emax + 1) << (f.p - 1); }
static inline uint64_t of_cnan(ofmt f) { return of_inf(f) | ((uint64_t)1 << (f.p - 2)); }
static inline int of_is_nan(ofmt f, uint64_t a) { return (a & (of_sign(f) - 1)) > of_inf(f); }
static inline int of_is_snan(ofmt f, uint64_t a) {
  return of_is_nan(f, a) && !(a & ((uint64_t)1 << (f.p - 2)));
}
static inline int of_is_inf(ofmt f, uint64_t a) { return (a & (of_sign(f) - 1)) == of_inf(f); }
static inline int of_is_zero(ofmt f, uint64_t a) { return (a & (of_sign(f) - 1)) == 0; }

/* The exact value of the bits a of format f (x must have >= p bits). */
static inline void b2m(ofmt f, mpfr_ptr x, uint64_t a) {
  int neg = (a & of_sign(f)) != 0;
  uint64_t fracmask = ((uint64_t)1 << (f.p - 1)) - 1;
  long be = (long)((a & (of_sign(f) - 1)) >> (f.p - 1));
  uint64_t frac = a & fracmask;
  if (be == 2 * f.emax + 1) {
    if (frac)
      mpfr_set_nan(x);
    else
      mpfr_set_inf(x, neg ? -1 : 1);
  } else if (be == 0 && frac == 0) {
    mpfr_set_zero(x, neg ? -1 : 1);
  } else {
    uintmax_t sig = be ? frac | (fracmask + 1) : frac;
    mpfr_set_uj_2exp(x, sig, (be ? be : 1) - f.emax - (f.p - 1), MPFR_RNDN); /* exact */
    if (neg) mpfr_neg(x, x, MPFR_RNDN);
  }
}

/* The bits of an MPFR number that format f represents exactly. */
static inline uint64_t m2b(ofmt f, mpfr_srcptr x) {
  if (mpfr_nan_p(x)) return of_cnan(f);
  uint64_t s = mpfr_signbit(x) ? of_sign(f) : 0;
  if (mpfr_inf_p(x)) return s | of_inf(f);
  if (mpfr_zero_p(x)) return s;
  mpz_t z;
  mpz_init(z);
  long e = (long)mpfr_get_z_2exp(z, x); /* x = z * 2^e */
  mpz_abs(z, z);
  while (mpz_sizeinbase(z, 2) < (size_t)f.p) {
    mpz_mul_2exp(z, z, 1);
    e--;
  }
  while (mpz_sizeinbase(z, 2) > (size_t)f.p) {
    if (mpz_odd_p(z)) abort(); /* not representable: oracle bug */
    mpz_fdiv_q_2exp(z, z, 1);
    e++;
  }
  uint64_t sig = 0;
  mpz_export(&sig, NULL, -1, sizeof sig, 0, 0, z);
  mpz_clear(z);
  long be = e + (f.p - 1) + f.emax; /* biased exponent of the leading bit */
  if (be >= 1 && be <= 2 * f.emax) return s | ((uint64_t)be << (f.p - 1)) | (sig & ~((uint64_t)1 << (f.p - 1)));
  long sh = 1 - be; /* subnormal: the field is sig >> sh, which must be exact */
  if (be < 1 && sh < f.p && (sig & (((uint64_t)1 << sh) - 1)) == 0) return s | (sig >> sh);
  abort();
}

enum { OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_SQRT, OP_FMA, OP_FMSUB, OP_FNMSUB, OP_FNMADD, OP_CVT };
static const char *const op_name[] = {"add", "sub", "mul", "div", "sqrt", "fma", "fmsub", "fnmsub", "fnmadd", "cvt"};

/* Operands (X, Y, Z; for OP_CVT X holds the exact source value) and
 * scratch values at 128 bits: enough for every binary64 value and 64-bit
 * integer. */
static mpfr_t X, Y, Z, O, MID;
static mpfr_exp_t emin_default, emax_default;

static inline void oracle_setup(void) {
  emin_default = mpfr_get_emin();
  emax_default = mpfr_get_emax();
  mpfr_inits2(128, X, Y, Z, O, MID, (mpfr_ptr)0);
}
static inline void narrow_range(ofmt f) {
  mpfr_set_emin(3 - f.emax - f.p);
  mpfr_set_emax(f.emax + 1);
}
static inline void wide_range(void) {
  mpfr_set_emin(emin_default);
  mpfr_set_emax(emax_default);
}

static inline int mp_op(int op, mpfr_ptr r, mpfr_rnd_t rnd) {
  switch (op) {
  case OP_ADD: return mpfr_add(r, X, Y, rnd);
  case OP_SUB: return mpfr_sub(r, X, Y, rnd);
  case OP_MUL: return mpfr_mul(r, X, Y, rnd);
  case OP_DIV: return mpfr_div(r, X, Y, rnd);
  case OP_SQRT: return mpfr_sqrt(r, X, rnd);
  case OP_FMA: return mpfr_fma(r, X, Y, Z, rnd);
  case OP_FMSUB: return mpfr_fms(r, X, Y, Z, rnd); /* x*y-z */
  case OP_FNMSUB: {                                /* -(x*y)+z */
    mpfr_neg(X, X, MPFR_RNDN);
    int t = mpfr_fma(r, X, Y, Z, rnd);
    mpfr_neg(X, X, MPFR_RNDN);
    return t;
  }
  case OP_FNMADD: { /* -(x*y)-z */
    mpfr_neg(X, X, MPFR_RNDN);
    int t = mpfr_fms(r, X, Y, Z, rnd);
    mpfr_neg(X, X, MPFR_RNDN);
    return t;
  }
  default: return mpfr_set(r, X, rnd);
  }
}

/* x (precision p, computed with ternary t in mode rnd, wide range) limited
 * to format f: overflow, subnormals. Returns the new ternary value. */
static inline int limit_to_format(ofmt f, mpfr_ptr x, int t, mpfr_rnd_t rnd, int *of) {
  narrow_range(f);
  mpfr_clear_flags();
  t = mpfr_check_range(x, t, rnd);
  t = mpfr_subnormalize(x, t, rnd);
  *of = mpfr_overflow_p() != 0;
  wide_range();
  return t;
}

/* non-zero and below 2^(1-emax) in magnitude (MPFR: |t| = m 2^exp with
 * m in [1/2, 1), so |t| < 2^k exactly when exp <= k) */
static inline int is_tiny(ofmt f, mpfr_srcptr t) {
  return mpfr_regular_p(t) && mpfr_get_exp(t) <= 1 - f.emax;
}

/* RMM rounding of the round-to-odd value O to format f (narrow: with the
 * format's range, else unbounded): result in out (precision p). */
static inline void round_rmm(ofmt f, mpfr_ptr out, int narrow, int *of) {
  *of = 0;
  if (mpfr_zero_p(O)) {
    mpfr_set(out, O, MPFR_RNDN);
    return;
  }
  mpfr_t zr, ar;
  mpfr_inits2(f.p, zr, ar, (mpfr_ptr)0);
  int tz = mpfr_set(zr, O, MPFR_RNDZ), ta = mpfr_set(ar, O, MPFR_RNDA), dummy;
  if (narrow) {
    tz = limit_to_format(f, zr, tz, MPFR_RNDZ, &dummy);
    ta = limit_to_format(f, ar, ta, MPFR_RNDA, &dummy);
  }
  if (tz == 0) {
    mpfr_set(out, zr, MPFR_RNDN);
  } else {
    if (mpfr_inf_p(ar)) { /* largest finite + half an ulp: (2^(p+1) - 1) 2^(emax - p) */
      mpfr_set_uj_2exp(MID, ((uintmax_t)1 << (f.p + 1)) - 1, f.emax - f.p, MPFR_RNDN);
    } else {
      mpfr_add(MID, zr, ar, MPFR_RNDN); /* exact at 128 bits */
      mpfr_div_2ui(MID, MID, 1, MPFR_RNDN);
      mpfr_abs(MID, MID, MPFR_RNDN);
    }
    if (mpfr_cmpabs(O, MID) >= 0) {
      mpfr_set(out, ar, MPFR_RNDN);
      *of = mpfr_inf_p(ar) != 0;
    } else {
      mpfr_set(out, zr, MPFR_RNDN);
    }
  }
  mpfr_clears(zr, ar, (mpfr_ptr)0);
}

static const mpfr_rnd_t mp_rnd[4] = {MPFR_RNDN, MPFR_RNDZ, MPFR_RNDD, MPFR_RNDU};

/* Expected bits and flags of op rounded to format f in mode rm; X, Y, Z
 * hold the (non-NaN) operands. */
static inline uint64_t oracle_round(ofmt f, int op, int rm, uint32_t *fl) {
  mpfr_t r, t;
  mpfr_inits2(f.p, r, t, (mpfr_ptr)0);
  uint64_t res;
  int inexact, tiny, of;
  mpfr_clear_flags();
  if (rm != VT_RM_RMM) {
    mpfr_rnd_t rnd = mp_rnd[rm];
    int tern = mp_op(op, r, rnd);
    int dz = mpfr_divby0_p() != 0;
    if (mpfr_nan_p(r)) {
      *fl |= NV;
      res = of_cnan(f);
      goto done;
    }
    mpfr_set(t, r, MPFR_RNDN); /* p bits, unbounded exponent */
    tiny = is_tiny(f, t);
    tern = limit_to_format(f, r, tern, rnd, &of);
    res = m2b(f, r);
    inexact = tern != 0;
    if (dz) *fl |= DZ;
  } else {
    int tern = mp_op(op, O, MPFR_RNDZ);
    if (mpfr_nan_p(O)) {
      *fl |= NV;
      res = of_cnan(f);
      goto done;
    }
    if (mpfr_divby0_p()) *fl |= DZ;
    if (mpfr_inf_p(O)) { /* an exact infinity */
      res = m2b(f, O);
      goto done;
    }
    /* round to odd: an inexact O whose last bit is 0 moves one ulp away */
    if (tern != 0 && mpfr_min_prec(O) < mpfr_get_prec(O)) {
      if (mpfr_sgn(O) > 0)
        mpfr_nextabove(O);
      else
        mpfr_nextbelow(O);
    }
    round_rmm(f, r, 1, &of);
    res = m2b(f, r);
    inexact = tern != 0 || mpfr_cmp(r, O) != 0;
    int of_wide;
    round_rmm(f, t, 0, &of_wide);
    tiny = is_tiny(f, t);
  }
  if (of) *fl |= OF;
  if (inexact) *fl |= NX;
  if (tiny && inexact) *fl |= UF;
done:
  mpfr_clears(r, t, (mpfr_ptr)0);
  return res;
}

/* Expected result of an operation on operands of format f (nin = 1..3). */
static inline uint64_t oracle(ofmt f, int op, uint64_t a, uint64_t b, uint64_t c, int rm, uint32_t *fl) {
  int nin = op == OP_SQRT ? 1 : op >= OP_FMA ? 3 : 2;
  uint64_t in[3] = {a, b, c};
  int any_nan = 0;
  *fl = 0;
  for (int i = 0; i < nin; i++) {
    any_nan |= of_is_nan(f, in[i]);
    if (of_is_snan(f, in[i])) *fl |= NV;
  }
  if (op >= OP_FMA && ((of_is_inf(f, a) && of_is_zero(f, b)) || (of_is_zero(f, a) && of_is_inf(f, b))))
    *fl |= NV; /* RISC-V: inf * 0 is invalid even when c is a quiet NaN */
  if (any_nan) return of_cnan(f);
  b2m(f, X, a);
  if (nin >= 2) b2m(f, Y, b);
  if (nin >= 3) b2m(f, Z, c);
  return oracle_round(f, op, rm, fl);
}

/* Expected conversion of the bits a of format src to format dst. */
static inline uint64_t oracle_cvt(ofmt src, ofmt dst, uint64_t a, int rm, uint32_t *fl) {
  *fl = 0;
  if (of_is_nan(src, a)) {
    if (of_is_snan(src, a)) *fl = NV;
    return of_cnan(dst);
  }
  b2m(src, X, a);
  return oracle_round(dst, OP_CVT, rm, fl);
}

/* Expected RISC-V float -> `bits`-bit integer conversion (Appendix C6):
 * MPFR rounds to an integer, then the saturation rules apply. */
static inline uint64_t oracle_to_int(ofmt src, uint64_t a, int bits, int is_signed, int rm, uint32_t *fl) {
  uint64_t umax = bits == 64 ? ~(uint64_t)0 : ((uint64_t)1 << bits) - 1;
  uint64_t smax = umax >> 1, smin = (0 - (smax + 1)) & umax;
  *fl = 0;
  if (of_is_nan(src, a)) {
    *fl = NV;
    return is_signed ? smax : umax;
  }
  int neg = (a & of_sign(src)) != 0;
  if (of_is_inf(src, a)) {
    *fl = NV;
    return is_signed ? (neg ? smin : smax) : (neg ? 0 : umax);
  }
  b2m(src, X, a);
  if (rm == VT_RM_RMM)
    mpfr_round(O, X); /* ties away from zero */
  else
    mpfr_rint(O, X, mp_rnd[rm]);
  int lo = is_signed ? mpfr_cmp_si_2exp(O, -1, bits - 1) < 0 : mpfr_sgn(O) < 0;
  int hi = mpfr_cmp_ui_2exp(O, 1, is_signed ? bits - 1 : bits) >= 0;
  if (lo || hi) {
    *fl = NV;
    if (is_signed) return lo ? smin : smax;
    return lo ? 0 : umax;
  }
  if (mpfr_cmp(O, X) != 0) *fl = NX;
  if (is_signed) return (uint64_t)mpfr_get_sj(O, MPFR_RNDN) & umax;
  return (uint64_t)mpfr_get_uj(O, MPFR_RNDN);
}

/* Expected round((a op b) * 2^k) in format f, op 0 add, 1 sub, 2 mul (the
 * single rounding of VOP64's OMOD): the exact result at 2200 bits (any sum
 * of two binary64 values fits), scaled, rounded by oracle_round; the zero
 * sign of an exact cancellation from MPFR's addition in the same mode. */
static inline uint64_t oracle_scaled(ofmt f, int op, uint64_t a, uint64_t b, int k, int rm,
                                     uint32_t *fl) {
  *fl = 0;
  if (of_is_nan(f, a) || of_is_nan(f, b)) {
    if (of_is_snan(f, a) || of_is_snan(f, b)) *fl = NV;
    return of_cnan(f);
  }
  mpfr_t A, B;
  mpfr_inits2(128, A, B, (mpfr_ptr)0);
  b2m(f, A, a);
  b2m(f, B, b);
  mpfr_set_prec(X, 2200);
  mpfr_rnd_t zr = rm == VT_RM_RMM ? MPFR_RNDN : mp_rnd[rm]; /* exact: only a zero's sign */
  if (op == 0) mpfr_add(X, A, B, zr);
  else if (op == 1) mpfr_sub(X, A, B, zr);
  else mpfr_mul(X, A, B, zr);
  uint64_t r;
  if (mpfr_nan_p(X)) {
    *fl = NV;
    r = of_cnan(f);
  } else {
    mpfr_mul_2si(X, X, k, MPFR_RNDN);
    r = oracle_round(f, OP_CVT, rm, fl);
  }
  mpfr_set_prec(X, 128);
  mpfr_clears(A, B, (mpfr_ptr)0);
  return r;
}

/* ---------- shared test plumbing ---------- */

#if defined(__SANITIZE_ADDRESS__)
#define VT_UNDER_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(undefined_behavior_sanitizer)
#define VT_UNDER_SANITIZER 1
#endif
#endif

static inline double test_scale(void) {
  const char *e = getenv("VT_FP_TEST_SCALE");
  if (e && *e) return atof(e);
#if defined(VT_UNDER_SANITIZER) || !defined(NDEBUG)
  return 0.1;
#else
  return 1.0;
#endif
}
static inline long count(long base) {
  long n = (long)(base * test_scale());
  return n < 100 ? 100 : n;
}

typedef struct stats {
  long cases, fails;
} stats;

static inline void report(check_state *st, stats *s, const char *what, const char *in, uint64_t got,
                   uint32_t gotf, uint64_t exp, uint32_t expf) {
  s->cases++;
  if (got == exp && gotf == expf) return;
  s->fails++;
  st->failed_checks++;
  if (s->fails <= 10)
    fprintf(stderr, "MISMATCH %s %s: got %016llx flags %02x, expected %016llx flags %02x\n", what, in,
            (unsigned long long)got, gotf, (unsigned long long)exp, expf);
}

#endif
