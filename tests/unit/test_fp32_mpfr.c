/* src/fp/fp32.c against MPFR: every arithmetic operation and conversion in
 * every rounding mode on millions of random and "interesting" operands,
 * results and fflags compared bit-exactly; min/max/compare/classify against
 * hand-written RISC-V rule tables; vfrec7/vfrsqrt7 against an independent
 * evaluation of the RVV 1.0 algorithm with tables generated from their
 * definition, plus the spec's worked examples.
 *
 * The MPFR oracle (docs/fp.md explains it):
 *  - result in RNE/RTZ/RDN/RUP: precision 24, emin -148, emax 128, the
 *    operation rounded by MPFR, then mpfr_subnormalize (MPFR's documented
 *    IEEE emulation). NX = non-zero ternary, OF = MPFR's overflow flag,
 *    DZ = MPFR's divide-by-zero flag.
 *  - UF: NOT MPFR's underflow flag (with emin -148 that flag means "below
 *    the smallest subnormal", not IEEE tininess). RISC-V detects tininess
 *    after rounding: the exact result rounded to 24 bits with an UNBOUNDED
 *    exponent range lies strictly between +-2^-126. The oracle computes
 *    exactly that (same operation, precision 24, MPFR's default huge
 *    exponent range) and sets UF = tiny && inexact.
 *  - RMM (MPFR has no ties-away mode usable with subnormalize): the exact
 *    result is first rounded to 64 bits "to odd" (RNDZ, then the last bit
 *    forced to 1 if inexact), which keeps its relation to every binary32
 *    midpoint. Then the two binary32 neighbours (RNDZ and RNDA, each with
 *    range check and subnormalize) and their midpoint are computed and the
 *    64-bit value compared with the midpoint: >= picks the away neighbour.
 *    Past the largest finite value the midpoint is 2^128 - 2^103.
 *  - NV: any signalling NaN operand; a NaN result from non-NaN operands
 *    (MPFR's invalid cases); fma(inf, 0, qNaN) (a RISC-V rule). NaN results
 *    are compared as the canonical NaN 0x7fc00000.
 * Case counts scale with VT_FP_TEST_SCALE (default 1, or 0.1 under a
 * sanitizer or without NDEBUG). VT_FP_TEST_SEED changes the random seed. */
#include <math.h>
#include <mpfr.h>
#include <time.h>

#include "check.h"
#include "fp/fp32.h"

#if defined(__SANITIZE_ADDRESS__)
#define VT_UNDER_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(undefined_behavior_sanitizer)
#define VT_UNDER_SANITIZER 1
#endif
#endif

enum { NX = VT_FFLAG_NX, UF = VT_FFLAG_UF, OF = VT_FFLAG_OF, DZ = VT_FFLAG_DZ, NV = VT_FFLAG_NV };
#define CNAN 0x7fc00000u
static const char *const rm_name[5] = {"RNE", "RTZ", "RDN", "RUP", "RMM"};

/* ---------- random operands ---------- */

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rnd64(void) { /* splitmix64 */
  uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
static uint32_t rnd32(void) { return (uint32_t)(rnd64() >> 32); }
static uint32_t rndn(uint32_t n) { return (uint32_t)(((rnd64() >> 32) * n) >> 32); }

static const uint32_t specials[] = {
    0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x00000002, 0x007fffff, 0x807fffff,
    0x00400000, 0x00400001, 0x003fffff, 0x00800000, 0x80800000, 0x00800001, 0x00ffffff,
    0x7f7fffff, 0xff7fffff, 0x7f7ffffe, 0x7f000000, 0x7e800000, 0x7f800000, 0xff800000,
    0x7fc00000, 0xffc00000, 0x7fc00001, 0x7fffffff, 0x7f800001, 0xff800001, 0x7fbfffff,
    0x7fa00000, 0x3f800000, 0xbf800000, 0x3f800001, 0x3f7fffff, 0x40000000, 0x3f000000,
    0xbf000000, 0x3effffff, 0x3f000001, 0x3fc00000, 0x40200000, 0x40400000, 0x4b000000,
    0x4b7fffff, 0x4b800000, 0x4f000000, 0xcf000000, 0x4effffff, 0xcf000001, 0x4f800000,
    0x4f7fffff, 0xcf7fffff, 0x5f000000, 0x34000000, 0x33800000, 0x0c000000, 0x1f800000,
    0x5f800000, 0x3fb504f3, 0x40490fdb, 0x3e99999a, 0xbe99999a};
#define NSPECIALS (sizeof specials / sizeof specials[0])

/* A 23-bit fraction with structure: few bits, runs of ones, clear low bits. */
static uint32_t rnd_frac(void) {
  switch (rndn(8)) {
  case 0: return 0;
  case 1: return 0x7fffff;
  case 2: return (1u << rndn(23)) | (rndn(2) ? 1u << rndn(23) : 0);
  case 3: return (0x7fffffu >> rndn(23)) << rndn(23) & 0x7fffff;
  case 4: return rnd32() & 0x7fffff & ~((1u << rndn(24)) - 1);
  case 5: return (rnd32() | ((1u << rndn(24)) - 1)) & 0x7fffff;
  default: return rnd32() & 0x7fffff;
  }
}
static uint32_t make_f32(uint32_t sign, int exp, uint32_t frac) {
  if (exp < 0) exp = 0;
  if (exp > 254) exp = 254;
  return (sign << 31) | ((uint32_t)exp << 23) | (frac & 0x7fffff);
}
static uint32_t rnd_f32(void) {
  uint32_t r = rndn(16);
  if (r < 4) return rnd32();
  if (r < 6) return specials[rndn(NSPECIALS)];
  uint32_t s = rndn(2);
  if (r < 10) return make_f32(s, (int)rndn(255), rnd_frac());
  if (r < 13) return make_f32(s, 97 + (int)rndn(60), rnd_frac());
  static const int edge[] = {0, 0, 0, 1, 2, 3, 24, 25, 126, 127, 128, 252, 253, 254};
  return make_f32(s, edge[rndn(sizeof edge / sizeof edge[0])], rnd_frac());
}
static int f32_exp(uint32_t a) { return (int)((a >> 23) & 0xff); }
/* a moved by a few ulps (stays finite or becomes its neighbour class) */
static uint32_t nudge(uint32_t a) {
  int d = (int)rndn(7) - 3;
  uint32_t m = a & 0x7fffffff;
  if (m >= 0x7f800000) return a;
  int64_t nm = (int64_t)m + d;
  if (nm < 0) nm = 0;
  if (nm > 0x7f7fffff) nm = 0x7f7fffff;
  return (a & 0x80000000u) | (uint32_t)nm;
}
static uint32_t host_bits(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}
static float host_float(uint32_t u) {
  float f;
  memcpy(&f, &u, 4);
  return f;
}

/* Operands for a two-operand op, biased to exercise its hard cases. */
static void gen_pair(int op, uint32_t *a, uint32_t *b);

/* ---------- MPFR oracle ---------- */

enum { OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_SQRT, OP_FMA, OP_FMSUB, OP_FNMSUB, OP_FNMADD, OP_CVT, OP_COUNT };
static const char *const op_name[] = {"add", "sub", "mul", "div", "sqrt", "fma", "fmsub", "fnmsub", "fnmadd", "cvt"};

static mpfr_t X, Y, Z, R, T, O, ZR, AR, MID, MINNORM;
static mpfr_exp_t emin_default, emax_default;

static int f32_is_nan(uint32_t a) { return (a & 0x7fffffff) > 0x7f800000; }
static int f32_is_snan(uint32_t a) { return f32_is_nan(a) && !(a & 0x00400000); }
static int f32_is_inf(uint32_t a) { return (a & 0x7fffffff) == 0x7f800000; }
static int f32_is_zero(uint32_t a) { return (a & 0x7fffffff) == 0; }

static void f2m(mpfr_ptr x, uint32_t a) {
  int e = f32_exp(a), s = (int)(a >> 31);
  uint32_t f = a & 0x7fffff;
  if (e == 255) {
    if (f)
      mpfr_set_nan(x);
    else
      mpfr_set_inf(x, s ? -1 : 1);
  } else if (e == 0 && f == 0) {
    mpfr_set_zero(x, s ? -1 : 1);
  } else {
    mpfr_set_ui_2exp(x, e ? f | 0x800000 : f, (e ? e : 1) - 150, MPFR_RNDN); /* exact */
    if (s) mpfr_neg(x, x, MPFR_RNDN);
  }
}

/* A binary32-representable MPFR number (precision <= 24) to its bits. */
static uint32_t m2f(mpfr_srcptr x) {
  if (mpfr_nan_p(x)) return CNAN;
  uint32_t s = mpfr_signbit(x) ? 0x80000000u : 0;
  if (mpfr_inf_p(x)) return s | 0x7f800000u;
  if (mpfr_zero_p(x)) return s;
  mpz_t z;
  mpz_init(z);
  mpfr_exp_t e = mpfr_get_z_2exp(z, x); /* x = z * 2^e */
  mpz_abs(z, z);
  while (mpz_sizeinbase(z, 2) < 24) { /* to a 24-bit significand */
    mpz_mul_2exp(z, z, 1);
    e--;
  }
  while (mpz_sizeinbase(z, 2) > 24) {
    if (mpz_odd_p(z)) abort(); /* not representable: oracle bug */
    mpz_fdiv_q_2exp(z, z, 1);
    e++;
  }
  uint32_t sig = (uint32_t)mpz_get_ui(z);
  mpz_clear(z);
  long be = (long)e + 150; /* x = sig * 2^(be - 150) */
  if (be >= 1 && be <= 254) return s | ((uint32_t)be << 23) | (sig & 0x7fffff);
  if (be < 1 && be > -24 && (sig & ((1u << (1 - be)) - 1)) == 0) return s | (sig >> (1 - be));
  abort();
}

static int mp_op(int op, mpfr_ptr r, mpfr_rnd_t rnd) {
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
  default: return mpfr_set(r, X, rnd); /* OP_CVT: X holds an exact integer */
  }
}

static void narrow_range(void) {
  mpfr_set_emin(-148);
  mpfr_set_emax(128);
}
static void wide_range(void) {
  mpfr_set_emin(emin_default);
  mpfr_set_emax(emax_default);
}

/* Round the 64-bit round-to-odd value O to binary32 with ties away from
 * zero; `narrow`: the binary32 exponent range (else unbounded). Returns the
 * value in out (precision 24), *of set on overflow. */
static void round_rmm(mpfr_ptr out, int narrow, int *of) {
  *of = 0;
  if (mpfr_zero_p(O)) {
    mpfr_set(out, O, MPFR_RNDN);
    return;
  }
  int tz = mpfr_set(ZR, O, MPFR_RNDZ);
  int ta = mpfr_set(AR, O, MPFR_RNDA);
  if (narrow) {
    narrow_range();
    tz = mpfr_check_range(ZR, tz, MPFR_RNDZ);
    tz = mpfr_subnormalize(ZR, tz, MPFR_RNDZ);
    ta = mpfr_check_range(AR, ta, MPFR_RNDA);
    ta = mpfr_subnormalize(AR, ta, MPFR_RNDA);
    wide_range();
  }
  if (tz == 0) {
    mpfr_set(out, ZR, MPFR_RNDN);
    return;
  }
  if (mpfr_inf_p(AR)) { /* midpoint between the largest finite and 2^128 */
    mpfr_set_ui_2exp(MID, (1u << 25) - 1, 103, MPFR_RNDN);
  } else {
    mpfr_add(MID, ZR, AR, MPFR_RNDN); /* exact at 64 bits */
    mpfr_div_2ui(MID, MID, 1, MPFR_RNDN);
    mpfr_abs(MID, MID, MPFR_RNDN);
  }
  if (mpfr_cmpabs(O, MID) >= 0) {
    mpfr_set(out, AR, MPFR_RNDN);
    *of = mpfr_inf_p(AR) != 0;
  } else {
    mpfr_set(out, ZR, MPFR_RNDN);
  }
}

/* non-zero and strictly between +-2^-126 */
static int is_tiny(mpfr_srcptr t) { return mpfr_regular_p(t) && mpfr_cmpabs(t, MINNORM) < 0; }

static const mpfr_rnd_t mp_rnd[4] = {MPFR_RNDN, MPFR_RNDZ, MPFR_RNDD, MPFR_RNDU};

/* Expected result and flags of op on binary32 inputs (X, Y, Z set from
 * a, b, c except for OP_CVT, where X holds the integer). */
static uint32_t oracle(int op, uint32_t a, uint32_t b, uint32_t c, int rm, uint32_t *fl) {
  int nin = op == OP_CVT ? 0 : op == OP_SQRT ? 1 : op >= OP_FMA ? 3 : 2;
  uint32_t in[3] = {a, b, c};
  int any_nan = 0;
  *fl = 0;
  for (int i = 0; i < nin; i++) {
    any_nan |= f32_is_nan(in[i]);
    if (f32_is_snan(in[i])) *fl |= NV;
  }
  if (op >= OP_FMA && op <= OP_FNMADD &&
      ((f32_is_inf(a) && f32_is_zero(b)) || (f32_is_zero(a) && f32_is_inf(b))))
    *fl |= NV; /* RISC-V: inf * 0 is invalid even when c is a quiet NaN */
  if (any_nan) return CNAN;
  if (nin >= 1) f2m(X, a);
  if (nin >= 2) f2m(Y, b);
  if (nin >= 3) f2m(Z, c);

  uint32_t res;
  int inexact, tiny;
  if (rm != VT_RM_RMM) {
    mpfr_rnd_t rnd = mp_rnd[rm];
    narrow_range();
    mpfr_clear_flags();
    int t = mp_op(op, R, rnd);
    t = mpfr_subnormalize(R, t, rnd);
    int of = mpfr_overflow_p(), dz = mpfr_divby0_p();
    wide_range();
    if (mpfr_nan_p(R)) {
      *fl |= NV;
      return CNAN;
    }
    res = m2f(R);
    inexact = t != 0;
    if (of) *fl |= OF;
    if (dz) *fl |= DZ;
    mp_op(op, T, rnd); /* 24 bits, unbounded exponent: tininess after rounding */
    tiny = is_tiny(T);
  } else {
    mpfr_clear_flags();
    int t = mp_op(op, O, MPFR_RNDZ);
    if (mpfr_nan_p(O)) {
      *fl |= NV;
      return CNAN;
    }
    if (mpfr_divby0_p()) *fl |= DZ;
    if (mpfr_inf_p(O)) return m2f(O); /* exact infinity */
    if (t != 0) {                     /* round to odd */
      mpz_t z;
      mpz_init(z);
      mpfr_get_z_2exp(z, O);
      if (mpz_even_p(z)) {
        if (mpfr_sgn(O) > 0)
          mpfr_nextabove(O);
        else
          mpfr_nextbelow(O);
      }
      mpz_clear(z);
    }
    int of;
    round_rmm(R, 1, &of);
    res = m2f(R);
    inexact = t != 0 || mpfr_cmp(R, O) != 0;
    if (of) *fl |= OF;
    int of_wide;
    round_rmm(T, 0, &of_wide);
    tiny = is_tiny(T);
  }
  if (inexact) *fl |= NX;
  if (tiny && inexact) *fl |= UF;
  return res;
}

/* ---------- comparing ---------- */

typedef struct stats {
  long cases, fails;
} stats;

static void report(check_state *st, stats *s, const char *what, const char *in, uint32_t got,
                   uint32_t gotf, uint32_t exp, uint32_t expf) {
  s->cases++;
  if (got == exp && gotf == expf) return;
  s->fails++;
  st->failed_checks++;
  if (s->fails <= 10)
    fprintf(stderr, "MISMATCH %s %s: got %08x flags %02x, expected %08x flags %02x\n", what, in, got,
            gotf, exp, expf);
}

static double scale(void) {
  const char *e = getenv("VT_FP_TEST_SCALE");
  if (e && *e) return atof(e);
#if defined(VT_UNDER_SANITIZER) || !defined(NDEBUG)
  return 0.1;
#else
  return 1.0;
#endif
}
static long count(long base) {
  long n = (long)(base * scale());
  return n < 100 ? 100 : n;
}

static void gen_pair(int op, uint32_t *a, uint32_t *b) {
  *a = rnd_f32();
  uint32_t r = rndn(8);
  if (r < 3) {
    *b = rnd_f32();
    return;
  }
  int ea = f32_exp(*a);
  if (ea == 255) ea = 127;
  int eb;
  switch (op) {
  case OP_ADD:
  case OP_SUB:
    if (r == 3) { /* near-cancellation */
      *b = nudge(*a) ^ (rndn(2) ? 0x80000000u : 0);
      return;
    }
    /* exponent distance around the rounding position */
    eb = ea - (int)rndn(30) + (rndn(4) == 0 ? 2 : 0);
    break;
  case OP_MUL: { /* product exponent near the underflow/overflow limits */
    static const int tgt[] = {-30, -25, -24, -23, -22, -2, -1, 0, 1, 2, 3, 252, 253, 254, 255, 256};
    int t = rndn(3) ? tgt[rndn(sizeof tgt / sizeof tgt[0])] : (int)rndn(280) - 20;
    eb = t - ea + 127;
    break;
  }
  case OP_DIV: {
    static const int tgt[] = {-30, -25, -24, -23, -22, -2, -1, 0, 1, 2, 3, 252, 253, 254, 255, 256};
    int t = rndn(3) ? tgt[rndn(sizeof tgt / sizeof tgt[0])] : (int)rndn(280) - 20;
    eb = ea - t + 127;
    break;
  }
  default: eb = (int)rndn(255); break;
  }
  if (eb < 0 || eb > 254) {
    *b = rnd_f32();
    return;
  }
  *b = make_f32(rndn(2), eb, rnd_frac());
}

typedef uint32_t (*fn2)(uint32_t, uint32_t, int, uint32_t *);
typedef uint32_t (*fn3)(uint32_t, uint32_t, uint32_t, int, uint32_t *);

static void run_binary(check_state *st, int op, fn2 f, long base) {
  long n = count(base);
  clock_t t0 = clock();
  for (int rm = 0; rm < 5; rm++) {
    stats s = {0, 0};
    for (long i = 0; i < n; i++) {
      uint32_t a, b, ef, gf = 0;
      gen_pair(op, &a, &b);
      uint32_t e = oracle(op, a, b, 0, rm, &ef);
      uint32_t g = f(a, b, rm, &gf);
      char in[64];
      snprintf(in, sizeof in, "%08x %08x %s", a, b, rm_name[rm]);
      report(st, &s, op_name[op], in, g, gf, e, ef);
    }
    printf("  %-6s %s: %ld cases, %ld mismatches\n", op_name[op], rm_name[rm], s.cases, s.fails);
  }
  printf("  (%.1f s)\n", (double)(clock() - t0) / CLOCKS_PER_SEC);
}

TEST(add_vs_mpfr) { run_binary(st, OP_ADD, vt_f32_add, 1000000); }
TEST(sub_vs_mpfr) { run_binary(st, OP_SUB, vt_f32_sub, 500000); }
TEST(mul_vs_mpfr) { run_binary(st, OP_MUL, vt_f32_mul, 1000000); }
TEST(div_vs_mpfr) { run_binary(st, OP_DIV, vt_f32_div, 800000); }

TEST(sqrt_vs_mpfr) {
  long n = count(600000);
  for (int rm = 0; rm < 5; rm++) {
    stats s = {0, 0};
    for (long i = 0; i < n; i++) {
      uint32_t a, ef, gf = 0;
      uint32_t r = rndn(8);
      if (r == 0) { /* exact squares and their neighbours */
        uint32_t k = 1 + rndn(4096);
        a = nudge(host_bits((float)(k * k) * ldexpf(1.0f, 2 * ((int)rndn(100) - 50))));
        if (rndn(2)) a = host_bits((float)(k * k) * ldexpf(1.0f, 2 * (int)rndn(40) - 150));
      } else if (r < 6) {
        a = rnd_f32() & 0x7fffffffu;
      } else {
        a = rnd_f32();
      }
      uint32_t e = oracle(OP_SQRT, a, 0, 0, rm, &ef);
      uint32_t g = vt_f32_sqrt(a, rm, &gf);
      char in[64];
      snprintf(in, sizeof in, "%08x %s", a, rm_name[rm]);
      report(st, &s, "sqrt", in, g, gf, e, ef);
    }
    printf("  sqrt   %s: %ld cases, %ld mismatches\n", rm_name[rm], s.cases, s.fails);
  }
}

static void gen_triple(uint32_t *a, uint32_t *b, uint32_t *c) {
  uint32_t r = rndn(8);
  if (r < 2) {
    *a = rnd_f32();
    *b = rnd_f32();
    *c = rnd_f32();
    return;
  }
  gen_pair(OP_MUL, a, b);
  float p = host_float(*a) * host_float(*b); /* near the exact product */
  uint32_t pb = host_bits(p);
  if (f32_is_nan(pb) || f32_is_inf(pb) || f32_is_zero(pb)) {
    *c = rnd_f32();
    return;
  }
  int ep = f32_exp(pb);
  switch (r) {
  case 2:
  case 3: *c = nudge(pb) ^ 0x80000000u; break;                                     /* cancellation */
  case 4: *c = nudge(pb) ^ (rndn(2) ? 0x80000000u : 0); break;
  case 5: *c = make_f32(rndn(2), ep - 20 - (int)rndn(40), rnd_frac()); break;      /* sticky range */
  case 6: *c = make_f32(rndn(2), ep + 1 + (int)rndn(30), rnd_frac()); break;       /* c dominates */
  default: *c = make_f32(rndn(2), ep - 3 + (int)rndn(7), rnd_frac()); break;
  }
}

static void run_fma(check_state *st, int op, fn3 f, long base) {
  long n = count(base);
  clock_t t0 = clock();
  for (int rm = 0; rm < 5; rm++) {
    stats s = {0, 0};
    for (long i = 0; i < n; i++) {
      uint32_t a, b, c, ef, gf = 0;
      gen_triple(&a, &b, &c);
      if (op == OP_FMSUB || op == OP_FNMADD) c ^= rndn(4) ? 0x80000000u : 0; /* keep cancellations */
      if (op == OP_FNMSUB || op == OP_FNMADD) a ^= rndn(4) ? 0x80000000u : 0;
      uint32_t e = oracle(op, a, b, c, rm, &ef);
      uint32_t g = f(a, b, c, rm, &gf);
      char in[64];
      snprintf(in, sizeof in, "%08x %08x %08x %s", a, b, c, rm_name[rm]);
      report(st, &s, op_name[op], in, g, gf, e, ef);
    }
    printf("  %-6s %s: %ld cases, %ld mismatches\n", op_name[op], rm_name[rm], s.cases, s.fails);
  }
  printf("  (%.1f s)\n", (double)(clock() - t0) / CLOCKS_PER_SEC);
}

TEST(fma_vs_mpfr) { run_fma(st, OP_FMA, vt_f32_fma, 1000000); }
TEST(fmsub_fnmsub_fnmadd_vs_mpfr) {
  run_fma(st, OP_FMSUB, vt_f32_fmsub, 100000);
  run_fma(st, OP_FNMSUB, vt_f32_fnmsub, 100000);
  run_fma(st, OP_FNMADD, vt_f32_fnmadd, 100000);
}

/* ---------- conversions ---------- */

static uint32_t rnd_int_bits(void) {
  uint32_t r = rndn(8);
  static const uint32_t sp[] = {0,          1,          0xffffffff, 0x7fffffff, 0x80000000,
                                0x80000001, 0x01000000, 0x01000001, 0x01000002, 0x01000003,
                                0x00ffffff, 0xfeffffff, 0xff000001, 0x7fffff80, 0x7fffffc0,
                                0x7fffffbf, 0xffffff80, 0xffffff7f, 0xffffffc0, 0x80000040};
  if (r == 0) return sp[rndn(sizeof sp / sizeof sp[0])];
  if (r < 3) return rnd32();
  uint32_t v = rnd32() >> rndn(32);
  if (r < 5) { /* a tie or near-tie at the 24-bit rounding position */
    int sh = 1 + (int)rndn(8);
    v = (rnd32() | 0x80000000u) >> (8 - sh + (int)rndn(2));
    uint32_t half = 1u << (sh - 1);
    v = (v & ~((1u << sh) - 1)) | (half + (uint32_t)((int)rndn(3) - 1)) % (1u << sh);
  }
  return rndn(2) ? 0u - v : v;
}

TEST(int_to_f32_vs_mpfr) {
  long n = count(400000);
  for (int sgn = 1; sgn >= 0; sgn--) {
    for (int rm = 0; rm < 5; rm++) {
      stats s = {0, 0};
      for (long i = 0; i < n; i++) {
        uint32_t x = rnd_int_bits(), ef, gf = 0, g;
        if (sgn) {
          mpfr_set_si(X, (int32_t)x, MPFR_RNDN);
          g = vt_i32_to_f32((int32_t)x, rm, &gf);
        } else {
          mpfr_set_ui(X, x, MPFR_RNDN);
          g = vt_u32_to_f32(x, rm, &gf);
        }
        uint32_t e = oracle(OP_CVT, 0, 0, 0, rm, &ef);
        char in[64];
        snprintf(in, sizeof in, "%08x %s", x, rm_name[rm]);
        report(st, &s, sgn ? "i32_to_f32" : "u32_to_f32", in, g, gf, e, ef);
      }
      printf("  %s %s: %ld cases, %ld mismatches\n", sgn ? "i32->f32" : "u32->f32", rm_name[rm],
             s.cases, s.fails);
    }
  }
}

/* Expected float -> int conversion: MPFR rounds to an integer, then the
 * RISC-V saturation rules apply. */
static uint32_t oracle_to_int(uint32_t a, int is_signed, int rm, uint32_t *fl) {
  *fl = 0;
  if (f32_is_nan(a)) {
    *fl = NV;
    return is_signed ? 0x7fffffffu : 0xffffffffu;
  }
  int neg = (a >> 31) != 0;
  if (f32_is_inf(a)) {
    *fl = NV;
    return is_signed ? (neg ? 0x80000000u : 0x7fffffffu) : (neg ? 0 : 0xffffffffu);
  }
  f2m(X, a);
  if (rm == VT_RM_RMM)
    mpfr_round(O, X); /* ties away from zero */
  else
    mpfr_rint(O, X, mp_rnd[rm]);
  int lo = is_signed ? mpfr_cmp_si(O, INT32_MIN) < 0 : mpfr_sgn(O) < 0;
  int hi = is_signed ? mpfr_cmp_si(O, INT32_MAX) > 0 : mpfr_cmp_ui(O, UINT32_MAX) > 0;
  if (lo || hi) {
    *fl = NV;
    if (is_signed) return lo ? 0x80000000u : 0x7fffffffu;
    return lo ? 0 : 0xffffffffu;
  }
  if (mpfr_cmp(O, X) != 0) *fl = NX;
  return is_signed ? (uint32_t)mpfr_get_si(O, MPFR_RNDN) : (uint32_t)mpfr_get_ui(O, MPFR_RNDN);
}

static uint32_t rnd_cvt_input(void) {
  uint32_t r = rndn(8);
  if (r < 2) return rnd_f32();
  if (r == 2) return nudge(specials[rndn(NSPECIALS)]);
  if (r == 3) { /* around +-2^31, 2^32 */
    static const uint32_t lim[] = {0x4f000000, 0xcf000000, 0x4f800000, 0xcf800000, 0x3f800000, 0xbf800000};
    return nudge(lim[rndn(6)]);
  }
  if (r == 4) { /* n + k/4: halfway cases */
    int32_t k = (int32_t)(rnd32() >> rndn(32)) / 2;
    float f = (float)k + 0.25f * (float)rndn(4);
    return host_bits(rndn(2) ? -f : f);
  }
  return make_f32(rndn(2), 110 + (int)rndn(52), rnd_frac());
}

TEST(f32_to_int_vs_mpfr) {
  long n = count(400000);
  for (int sgn = 1; sgn >= 0; sgn--) {
    for (int rm = 0; rm < 5; rm++) {
      stats s = {0, 0};
      for (long i = 0; i < n; i++) {
        uint32_t a = rnd_cvt_input(), ef, gf = 0;
        uint32_t e = oracle_to_int(a, sgn, rm, &ef);
        uint32_t g = sgn ? vt_f32_to_i32(a, rm, &gf) : vt_f32_to_u32(a, rm, &gf);
        char in[64];
        snprintf(in, sizeof in, "%08x %s", a, rm_name[rm]);
        report(st, &s, sgn ? "f32_to_i32" : "f32_to_u32", in, g, gf, e, ef);
      }
      printf("  %s %s: %ld cases, %ld mismatches\n", sgn ? "f32->i32" : "f32->u32", rm_name[rm],
             s.cases, s.fails);
    }
  }
}

/* ---------- hand-written known answers ---------- */

typedef struct kat {
  int op; /* OP_ADD.. OP_FMA */
  uint32_t a, b, c;
  int rm;
  uint32_t res, flags;
} kat;

TEST(known_answers) {
  static const kat k[] = {
      /* ties: 1 + 2^-24 */
      {OP_ADD, 0x3f800000, 0x33800000, 0, VT_RM_RNE, 0x3f800000, NX},
      {OP_ADD, 0x3f800000, 0x33800000, 0, VT_RM_RMM, 0x3f800001, NX},
      {OP_ADD, 0x3f800001, 0x33800000, 0, VT_RM_RNE, 0x3f800002, NX},
      {OP_ADD, 0xbf800000, 0xb3800000, 0, VT_RM_RMM, 0xbf800001, NX},
      {OP_ADD, 0x3f800000, 0x33800000, 0, VT_RM_RUP, 0x3f800001, NX},
      {OP_ADD, 0x3f800000, 0x33800000, 0, VT_RM_RDN, 0x3f800000, NX},
      /* exact zero sums: +0, or -0 when rounding down */
      {OP_ADD, 0x3f800000, 0xbf800000, 0, VT_RM_RNE, 0x00000000, 0},
      {OP_ADD, 0x3f800000, 0xbf800000, 0, VT_RM_RDN, 0x80000000, 0},
      {OP_ADD, 0x80000000, 0x80000000, 0, VT_RM_RNE, 0x80000000, 0},
      {OP_SUB, 0x00000000, 0x00000000, 0, VT_RM_RDN, 0x80000000, 0},
      /* tininess AFTER rounding: (1-2^-13)2^-126 * (1+2^-13) = 2^-126 (1-2^-26):
       * RNE rounds to 2^-126 with unbounded exponent: not tiny, no UF */
      {OP_MUL, 0x007ffc00, 0x3f800400, 0, VT_RM_RNE, 0x00800000, NX},
      {OP_MUL, 0x007ffc00, 0x3f800400, 0, VT_RM_RTZ, 0x007fffff, NX | UF},
      {OP_MUL, 0x007ffc00, 0x3f800400, 0, VT_RM_RUP, 0x00800000, NX},
      /* (1-2^-24) * 2^-126: exactly representable with 24 bits, so tiny */
      {OP_MUL, 0x3f7fffff, 0x00800000, 0, VT_RM_RNE, 0x00800000, NX | UF},
      {OP_MUL, 0x00000001, 0x3f000000, 0, VT_RM_RNE, 0x00000000, NX | UF},
      {OP_MUL, 0x00000001, 0x3f000000, 0, VT_RM_RMM, 0x00000001, NX | UF},
      {OP_MUL, 0x00000003, 0x3f000000, 0, VT_RM_RNE, 0x00000002, NX | UF},
      {OP_MUL, 0x00400000, 0x40000000, 0, VT_RM_RNE, 0x00800000, 0}, /* exact: no UF */
      {OP_MUL, 0x00000001, 0x3f800000, 0, VT_RM_RNE, 0x00000001, 0},
      /* overflow by rounding mode */
      {OP_MUL, 0x7f7fffff, 0x40000000, 0, VT_RM_RNE, 0x7f800000, OF | NX},
      {OP_MUL, 0x7f7fffff, 0x40000000, 0, VT_RM_RTZ, 0x7f7fffff, OF | NX},
      {OP_MUL, 0xff7fffff, 0x40000000, 0, VT_RM_RUP, 0xff7fffff, OF | NX},
      {OP_MUL, 0xff7fffff, 0x40000000, 0, VT_RM_RDN, 0xff800000, OF | NX},
      {OP_ADD, 0x7f7fffff, 0x73000000, 0, VT_RM_RNE, 0x7f800000, OF | NX}, /* max + half ulp */
      {OP_ADD, 0x7f7fffff, 0x73000000, 0, VT_RM_RMM, 0x7f800000, OF | NX},
      {OP_ADD, 0x7f7fffff, 0x72800000, 0, VT_RM_RMM, 0x7f7fffff, NX},
      /* invalid and divide by zero */
      {OP_ADD, 0x7f800000, 0xff800000, 0, VT_RM_RNE, CNAN, NV},
      {OP_MUL, 0x7f800000, 0x00000000, 0, VT_RM_RNE, CNAN, NV},
      {OP_DIV, 0x00000000, 0x80000000, 0, VT_RM_RNE, CNAN, NV},
      {OP_DIV, 0x3f800000, 0x80000000, 0, VT_RM_RNE, 0xff800000, DZ},
      {OP_DIV, 0x7f800000, 0x00000000, 0, VT_RM_RNE, 0x7f800000, 0},
      {OP_SQRT, 0xbf800000, 0, 0, VT_RM_RNE, CNAN, NV},
      {OP_SQRT, 0x80000000, 0, 0, VT_RM_RNE, 0x80000000, 0},
      {OP_SQRT, 0x40800000, 0, 0, VT_RM_RNE, 0x40000000, 0},
      {OP_SQRT, 0x40000000, 0, 0, VT_RM_RNE, 0x3fb504f3, NX},
      /* NaN inputs give the canonical NaN; only sNaN raises NV */
      {OP_ADD, 0x7fc12345, 0x3f800000, 0, VT_RM_RNE, CNAN, 0},
      {OP_ADD, 0xffc00000, 0x3f800000, 0, VT_RM_RNE, CNAN, 0},
      {OP_MUL, 0x7f800001, 0x3f800000, 0, VT_RM_RNE, CNAN, NV},
      /* fma: single rounding, inf*0 invalid even with a quiet NaN addend */
      {OP_FMA, 0x3f800001, 0x3f800001, 0xbf800002, VT_RM_RNE, 0x28800000, 0},
      {OP_FMA, 0x7f800000, 0x00000000, 0x7fc00000, VT_RM_RNE, CNAN, NV},
      {OP_FMA, 0x7f800000, 0x3f800000, 0xff800000, VT_RM_RNE, CNAN, NV},
      {OP_FMA, 0x00000000, 0x3f800000, 0x80000000, VT_RM_RNE, 0x00000000, 0},
      {OP_FMA, 0x80000000, 0x3f800000, 0x80000000, VT_RM_RNE, 0x80000000, 0},
      {OP_FMA, 0x3f800000, 0x3f800000, 0xbf800000, VT_RM_RDN, 0x80000000, 0},
  };
  for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
    uint32_t f = 0, r;
    switch (k[i].op) {
    case OP_ADD: r = vt_f32_add(k[i].a, k[i].b, k[i].rm, &f); break;
    case OP_SUB: r = vt_f32_sub(k[i].a, k[i].b, k[i].rm, &f); break;
    case OP_MUL: r = vt_f32_mul(k[i].a, k[i].b, k[i].rm, &f); break;
    case OP_DIV: r = vt_f32_div(k[i].a, k[i].b, k[i].rm, &f); break;
    case OP_SQRT: r = vt_f32_sqrt(k[i].a, k[i].rm, &f); break;
    default: r = vt_f32_fma(k[i].a, k[i].b, k[i].c, k[i].rm, &f); break;
    }
    if (r != k[i].res || f != k[i].flags) {
      st->failed_checks++;
      fprintf(stderr, "known answer %zu (%s %08x %08x %08x %s): got %08x/%02x expected %08x/%02x\n", i,
              op_name[k[i].op], k[i].a, k[i].b, k[i].c, rm_name[k[i].rm], r, f, k[i].res, k[i].flags);
    }
    /* the oracle must agree with the hand-computed answer too */
    uint32_t of;
    uint32_t orr = oracle(k[i].op, k[i].a, k[i].b, k[i].c, k[i].rm, &of);
    if (orr != k[i].res || of != k[i].flags) {
      st->failed_checks++;
      fprintf(stderr, "oracle disagrees with known answer %zu: %08x/%02x\n", i, orr, of);
    }
  }
  /* flags accumulate, never cleared */
  uint32_t f = VT_FFLAG_DZ;
  vt_f32_add(0x3f800000, 0x33800000, VT_RM_RNE, &f);
  CHECK_EQ_U32(st, f, VT_FFLAG_DZ | VT_FFLAG_NX);
  vt_f32_add(0x3f800000, 0x3f800000, VT_RM_RNE, &f);
  CHECK_EQ_U32(st, f, VT_FFLAG_DZ | VT_FFLAG_NX);
}

/* RMM differs from RNE exactly at ties: check the oracle finds ties. */
TEST(rmm_oracle_sanity) {
  long ties = 0, n = count(20000);
  for (long i = 0; i < n; i++) {
    uint32_t a = make_f32(0, 100 + (int)rndn(50), rnd_frac());
    uint32_t b = make_f32(0, f32_exp(a) - 24, 0);
    uint32_t f1, f2;
    uint32_t rne = oracle(OP_ADD, a, b, 0, VT_RM_RNE, &f1);
    uint32_t rmm = oracle(OP_ADD, a, b, 0, VT_RM_RMM, &f2);
    /* a + half an ulp of a: RMM rounds away, RNE to even */
    CHECK_EQ_U32(st, rmm, a + 1);
    CHECK_EQ_U32(st, rne, (a & 1) ? a + 1 : a);
    ties += rne != rmm;
  }
  printf("  %ld RMM/RNE tie differences out of %ld\n", ties, n);
  CHECK(st, ties > 0);
}

/* ---------- min/max/compare/classify: RISC-V rule tables ---------- */

TEST(minmax_compare_rules) {
  /* a, b, min, max, NV from min/max */
  static const uint32_t mm[][5] = {
      {0x00000000, 0x80000000, 0x80000000, 0x00000000, 0},
      {0x80000000, 0x00000000, 0x80000000, 0x00000000, 0},
      {0x7fc00000, 0x3f800000, 0x3f800000, 0x3f800000, 0},
      {0x3f800000, 0x7fc00000, 0x3f800000, 0x3f800000, 0},
      {0xffc12345, 0xbf800000, 0xbf800000, 0xbf800000, 0},
      {0x7f800001, 0x3f800000, 0x3f800000, 0x3f800000, NV},
      {0x3f800000, 0xff800001, 0x3f800000, 0x3f800000, NV},
      {0x7fc00000, 0x7fc00000, CNAN, CNAN, 0},
      {0x7fc12345, 0xffc00001, CNAN, CNAN, 0},
      {0x7f800001, 0x7fc00000, CNAN, CNAN, NV},
      {0xff800000, 0x7f800000, 0xff800000, 0x7f800000, 0},
      {0x3f800000, 0x40000000, 0x3f800000, 0x40000000, 0},
      {0xbf800000, 0xc0000000, 0xc0000000, 0xbf800000, 0},
      {0xbf800000, 0x3f800000, 0xbf800000, 0x3f800000, 0},
      {0x00000001, 0x00000000, 0x00000000, 0x00000001, 0},
      {0x80000001, 0x80000000, 0x80000001, 0x80000000, 0},
      {0x7f7fffff, 0x7f800000, 0x7f7fffff, 0x7f800000, 0},
      {0x3f800000, 0x3f800000, 0x3f800000, 0x3f800000, 0},
  };
  for (size_t i = 0; i < sizeof mm / sizeof mm[0]; i++) {
    uint32_t f1 = 0, f2 = 0;
    CHECK_EQ_U32(st, vt_f32_min(mm[i][0], mm[i][1], &f1), mm[i][2]);
    CHECK_EQ_U32(st, vt_f32_max(mm[i][0], mm[i][1], &f2), mm[i][3]);
    CHECK_EQ_U32(st, f1, mm[i][4]);
    CHECK_EQ_U32(st, f2, mm[i][4]);
  }
  /* a, b, eq, lt, le, NV of eq, NV of lt/le */
  static const uint32_t cmp[][7] = {
      {0x00000000, 0x80000000, 1, 0, 1, 0, 0},
      {0x80000000, 0x00000000, 1, 0, 1, 0, 0},
      {0x3f800000, 0x40000000, 0, 1, 1, 0, 0},
      {0x40000000, 0x3f800000, 0, 0, 0, 0, 0},
      {0xbf800000, 0x3f800000, 0, 1, 1, 0, 0},
      {0xc0000000, 0xbf800000, 0, 1, 1, 0, 0},
      {0xff800000, 0xff7fffff, 0, 1, 1, 0, 0},
      {0x7f800000, 0x7f800000, 1, 0, 1, 0, 0},
      {0x80000001, 0x00000000, 0, 1, 1, 0, 0},
      {0x7fc00000, 0x7fc00000, 0, 0, 0, 0, NV},
      {0x7fc00000, 0x3f800000, 0, 0, 0, 0, NV},
      {0x3f800000, 0xffc00000, 0, 0, 0, 0, NV},
      {0x7f800001, 0x3f800000, 0, 0, 0, NV, NV},
      {0x3f800000, 0x7fbfffff, 0, 0, 0, NV, NV},
  };
  for (size_t i = 0; i < sizeof cmp / sizeof cmp[0]; i++) {
    uint32_t fe = 0, fl = 0, fle = 0;
    CHECK_EQ_U32(st, vt_f32_eq(cmp[i][0], cmp[i][1], &fe), cmp[i][2]);
    CHECK_EQ_U32(st, vt_f32_lt(cmp[i][0], cmp[i][1], &fl), cmp[i][3]);
    CHECK_EQ_U32(st, vt_f32_le(cmp[i][0], cmp[i][1], &fle), cmp[i][4]);
    CHECK_EQ_U32(st, fe, cmp[i][5]);
    CHECK_EQ_U32(st, fl, cmp[i][6]);
    CHECK_EQ_U32(st, fle, cmp[i][6]);
  }
  /* random pairs against the rules written out with host comparisons
   * (IEEE comparisons are exact on any host) */
  long n = count(2000000), bad = 0;
  for (long i = 0; i < n; i++) {
    uint32_t a = rnd_f32(), b = rndn(4) ? rnd_f32() : (rndn(2) ? a ^ 0x80000000u : nudge(a));
    float fa = host_float(a), fb = host_float(b);
    int na = f32_is_nan(a), nb = f32_is_nan(b), sn = f32_is_snan(a) || f32_is_snan(b);
    uint32_t emin, emax, enf = sn ? NV : 0;
    if (na && nb) {
      emin = emax = CNAN;
    } else if (na || nb) {
      emin = emax = na ? b : a;
    } else if (fa < fb) {
      emin = a, emax = b;
    } else if (fb < fa) {
      emin = b, emax = a;
    } else { /* equal: only +-0 differ in bits */
      emin = (a | b) & 0x80000000u ? ((a >> 31) ? a : b) : a;
      emax = (a >> 31) ? b : a;
    }
    uint32_t eeq = !na && !nb && fa == fb, elt = !na && !nb && fa < fb, ele = !na && !nb && fa <= fb;
    uint32_t feqf = sn ? NV : 0, fltf = (na || nb) ? NV : 0;
    uint32_t f1 = 0, f2 = 0, f3 = 0, f4 = 0, f5 = 0;
    uint32_t gmin = vt_f32_min(a, b, &f1), gmax = vt_f32_max(a, b, &f2);
    uint32_t geq = (uint32_t)vt_f32_eq(a, b, &f3), glt = (uint32_t)vt_f32_lt(a, b, &f4);
    uint32_t gle = (uint32_t)vt_f32_le(a, b, &f5);
    if (gmin != emin || gmax != emax || f1 != enf || f2 != enf || geq != eeq || glt != elt ||
        gle != ele || f3 != feqf || f4 != fltf || f5 != fltf) {
      if (bad++ < 10) fprintf(stderr, "minmax/compare mismatch for %08x %08x\n", a, b);
      st->failed_checks++;
    }
  }
  printf("  min/max/eq/lt/le: %ld random pairs, %ld mismatches\n", n, bad);
}

static uint32_t ref_classify(uint32_t a) {
  float f = host_float(a);
  int neg = signbit(f) != 0;
  switch (fpclassify(f)) {
  case FP_INFINITE: return neg ? 1u << 0 : 1u << 7;
  case FP_NORMAL: return neg ? 1u << 1 : 1u << 6;
  case FP_SUBNORMAL: return neg ? 1u << 2 : 1u << 5;
  case FP_ZERO: return neg ? 1u << 3 : 1u << 4;
  default: return (a & 0x00400000u) ? 1u << 9 : 1u << 8;
  }
}

TEST(classify_rules) {
  static const uint32_t cl[][2] = {
      {0xff800000, 0x001}, {0xbf800000, 0x002}, {0xff7fffff, 0x002}, {0x80800000, 0x002},
      {0x807fffff, 0x004}, {0x80000001, 0x004}, {0x80000000, 0x008}, {0x00000000, 0x010},
      {0x00000001, 0x020}, {0x007fffff, 0x020}, {0x00800000, 0x040}, {0x7f7fffff, 0x040},
      {0x7f800000, 0x080}, {0x7f800001, 0x100}, {0xffbfffff, 0x100}, {0x7fc00000, 0x200},
      {0xffffffff, 0x200}, {0x7fc00001, 0x200},
  };
  for (size_t i = 0; i < sizeof cl / sizeof cl[0]; i++) CHECK_EQ_U32(st, vt_f32_classify(cl[i][0]), cl[i][1]);
  long n = count(1000000), bad = 0;
  for (long i = 0; i < n; i++) {
    uint32_t a = rnd_f32();
    if (vt_f32_classify(a) != ref_classify(a) && bad++ < 10) fprintf(stderr, "classify %08x\n", a);
  }
  if (bad) st->failed_checks++;
  printf("  classify: %ld random values, %ld mismatches\n", n, bad);
  /* sign injection is pure bit manipulation */
  CHECK_EQ_U32(st, vt_f32_sgnj(0x3f800000, 0x80000000), 0xbf800000);
  CHECK_EQ_U32(st, vt_f32_sgnj(0xffc00001, 0x00000000), 0x7fc00001);
  CHECK_EQ_U32(st, vt_f32_sgnjn(0x3f800000, 0x80000000), 0x3f800000);
  CHECK_EQ_U32(st, vt_f32_sgnjn(0x7f800001, 0x7f800001), 0xff800001);
  CHECK_EQ_U32(st, vt_f32_sgnjx(0xbf800000, 0x80000000), 0x3f800000);
  CHECK_EQ_U32(st, vt_f32_sgnjx(0xbf800000, 0x00000000), 0xbf800000);
}

/* ---------- vfrec7 / vfrsqrt7 ---------- */

/* The RVV 1.0 tables from their definition: entry i is the 7-bit
 * fraction nearest to the function's value at the midpoint of the input
 * interval i (1/x for x in [1,2) by the 7 high fraction bits; 1/sqrt(x)
 * for x in [2,4) (exponent bit 0 clear) and [1,2) (set) by 6 bits). These
 * formulas reproduce the tables printed in the spec. */
static uint8_t gen_rec7[128], gen_rsqrt7[128];
static void gen_tables(void) {
  for (int i = 0; i < 128; i++) {
    double mid = 1.0 + (i + 0.5) / 128.0;
    long v = lround((2.0 / mid - 1.0) * 128.0);
    gen_rec7[i] = (uint8_t)(v > 127 ? 127 : v);
    int odd = i >> 6;
    double x = (1.0 + ((i & 63) + 0.5) / 64.0) * (odd ? 1.0 : 2.0);
    double y = 1.0 / sqrt(x);
    while (y < 1.0) y *= 2.0;
    v = lround((y - 1.0) * 128.0);
    gen_rsqrt7[i] = (uint8_t)(v > 127 ? 127 : v);
  }
}

/* The spec's algorithm, evaluated on the real value with frexp. */
static uint32_t ref_est7(uint32_t a, int rsqrt, int rm, uint32_t *fl) {
  *fl = 0;
  int neg = (a >> 31) != 0;
  if (f32_is_nan(a)) {
    if (f32_is_snan(a)) *fl = NV;
    return CNAN;
  }
  if (f32_is_zero(a)) {
    *fl = DZ;
    return (a & 0x80000000u) | 0x7f800000u;
  }
  if (rsqrt && neg) {
    *fl = NV;
    return CNAN;
  }
  if (f32_is_inf(a)) return a & 0x80000000u;
  int e2;
  double m = frexp(fabs((double)host_float(a)), &e2); /* |a| = m 2^e2, m in [0.5, 1) */
  int ne = e2 - 1 + 127;                               /* normalised biased exponent */
  int frac7 = (int)floor((2.0 * m - 1.0) * 128.0);     /* 7 fraction bits after the 1 */
  int oe, t;
  if (!rsqrt) {
    oe = 2 * 127 - 1 - ne;
    if (oe > 254) { /* |a| < 2^-128 */
      *fl = NX | OF;
      int to_max = rm == VT_RM_RTZ || (rm == VT_RM_RDN && !neg) || (rm == VT_RM_RUP && neg);
      return (neg ? 0x80000000u : 0) | (to_max ? 0x7f7fffffu : 0x7f800000u);
    }
    t = gen_rec7[frac7];
  } else {
    oe = (int)floor((3.0 * 127 - 1 - ne) / 2.0);
    t = gen_rsqrt7[((ne & 1) << 6) | (frac7 >> 1)];
  }
  /* (1 + t/128) * 2^(oe - 127), exact in binary32 (subnormal when oe <= 0) */
  float r = (float)ldexp(128.0 + t, oe - 127 - 7);
  return host_bits(neg ? -r : r);
}

TEST(rec7_rsqrt7_spec) {
  gen_tables();
  /* the tables as printed in the RVV 1.0 spec, spot checks */
  CHECK_EQ_U32(st, gen_rec7[0], 127);
  CHECK_EQ_U32(st, gen_rec7[64], 42);
  CHECK_EQ_U32(st, gen_rec7[127], 0);
  CHECK_EQ_U32(st, gen_rsqrt7[0], 52);
  CHECK_EQ_U32(st, gen_rsqrt7[63], 0);
  CHECK_EQ_U32(st, gen_rsqrt7[64], 127);
  CHECK_EQ_U32(st, gen_rsqrt7[127], 53);
  /* the spec's worked examples (SEW = 32) */
  uint32_t f = 0;
  CHECK_EQ_U32(st, vt_f32_rec7(0x00718abc, VT_RM_RNE, &f), 0x7e900000);
  CHECK_EQ_U32(st, vt_f32_rec7(0x7f765432, VT_RM_RNE, &f), 0x00214000);
  CHECK_EQ_U32(st, vt_f32_rsqrt7(0x00718abc, &f), 0x5f080000);
  CHECK_EQ_U32(st, vt_f32_rsqrt7(0x7f765432, &f), 0x1f820000);
  CHECK_EQ_U32(st, f, 0);
  /* special cases and the rounding-mode dependent overflow */
  static const uint32_t sp[][4] = {
      /* input, rm, result, flags (rec7) */
      {0xff800000, 0, 0x80000000, 0},      {0x7f800000, 0, 0x00000000, 0},
      {0x80000000, 0, 0xff800000, DZ},     {0x00000000, 0, 0x7f800000, DZ},
      {0x7fc00000, 0, CNAN, 0},            {0x7f800001, 0, CNAN, NV},
      {0x00100000, 0, 0x7f800000, NX | OF}, {0x00100000, 1, 0x7f7fffff, NX | OF},
      {0x00100000, 2, 0x7f7fffff, NX | OF}, {0x00100000, 3, 0x7f800000, NX | OF},
      {0x00100000, 4, 0x7f800000, NX | OF}, {0x80100000, 2, 0xff800000, NX | OF},
      {0x80100000, 3, 0xff7fffff, NX | OF}, {0x80100000, 1, 0xff7fffff, NX | OF},
      {0x00200000, 0, 0x7f7f0000, 0},      {0x00400000, 0, 0x7eff0000, 0},
      {0x7f000000, 0, 0x003fc000, 0},      {0xff7fffff, 0, 0x80200000, 0},
  };
  for (size_t i = 0; i < sizeof sp / sizeof sp[0]; i++) {
    uint32_t fl = 0;
    CHECK_EQ_U32(st, vt_f32_rec7(sp[i][0], (int)sp[i][1], &fl), sp[i][2]);
    CHECK_EQ_U32(st, fl, sp[i][3]);
  }
  static const uint32_t sq[][3] = {
      {0xff800000, CNAN, NV},       {0xbf800000, CNAN, NV}, {0x80000001, CNAN, NV},
      {0x80000000, 0xff800000, DZ}, {0x00000000, 0x7f800000, DZ}, {0x7f800000, 0, 0},
      {0x7fc00000, CNAN, 0},        {0xff800001, CNAN, NV}, {0x3f800000, 0x3f7f0000, 0},
      {0x00000001, 0x64b40000, 0}, /* 2^-149: 1.40625 * 2^74 */
  };
  for (size_t i = 0; i < sizeof sq / sizeof sq[0]; i++) {
    uint32_t fl = 0;
    CHECK_EQ_U32(st, vt_f32_rsqrt7(sq[i][0], &fl), sq[i][1]);
    CHECK_EQ_U32(st, fl, sq[i][2]);
  }
  /* every table entry, then random inputs, in every rounding mode */
  long n = count(400000), bad = 0, cases = 0;
  for (int rm = 0; rm < 5; rm++) {
    for (long i = 0; i < n + 512; i++) {
      uint32_t a;
      if (i < 128)
        a = 0x3f800000u | (uint32_t)i << 16 | (rnd32() & 0xffff);
      else if (i < 256)
        a = (127u + ((i >> 6) & 1)) << 23 | (uint32_t)(i & 63) << 17 | (rnd32() & 0x1ffff);
      else if (i < 512)
        a = rnd32() & (0x807fffffu >> rndn(10)); /* subnormals, all magnitudes */
      else
        a = rnd_f32();
      uint32_t ef, gf = 0, e, g;
      for (int k = 0; k < 2; k++) {
        e = ref_est7(a, k, rm, &ef);
        gf = 0;
        g = k ? vt_f32_rsqrt7(a, &gf) : vt_f32_rec7(a, rm, &gf);
        cases++;
        if (g != e || gf != ef) {
          st->failed_checks++;
          if (bad++ < 10)
            fprintf(stderr, "%s(%08x) %s: got %08x/%02x expected %08x/%02x\n", k ? "rsqrt7" : "rec7", a,
                    rm_name[rm], g, gf, e, ef);
        }
      }
    }
  }
  printf("  rec7/rsqrt7: %ld cases, %ld mismatches\n", cases, bad);
}

TEST(exp_ventus) {
  /* (float)exp((double)x), host round to nearest, no flags */
  static const uint32_t in[] = {0x00000000, 0x3f800000, 0xbf800000, 0x42b17218, 0x42b20000,
                                0xc2cff1b5, 0xc2d00000, 0x7f800000, 0xff800000, 0x41200000};
  for (size_t i = 0; i < sizeof in / sizeof in[0]; i++)
    CHECK_EQ_U32(st, vt_f32_exp_ventus(in[i]), host_bits((float)exp((double)host_float(in[i]))));
  CHECK_EQ_U32(st, vt_f32_exp_ventus(0x00000000), 0x3f800000);
  CHECK_EQ_U32(st, vt_f32_exp_ventus(0xff800000), 0x00000000);
  CHECK_EQ_U32(st, vt_f32_exp_ventus(0x7f800000), 0x7f800000);
  CHECK_EQ_U32(st, vt_f32_exp_ventus(0x3f800000), 0x402df854); /* e */
}

/* ---------- speed (informational) ---------- */

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e9 + ts.tv_nsec;
}

TEST(speed) {
  (void)st;
  enum { N = 1 << 12 };
  static uint32_t a[N], b[N], c[N];
  for (int i = 0; i < N; i++) {
    a[i] = make_f32(rndn(2), 100 + (int)rndn(50), rnd32());
    b[i] = make_f32(rndn(2), 100 + (int)rndn(50), rnd32());
    c[i] = make_f32(rndn(2), 100 + (int)rndn(50), rnd32());
  }
  long reps = count(400);
  const char *names[] = {"add", "mul", "div", "sqrt", "fma", "f32_to_i32", "i32_to_f32"};
  for (int k = 0; k < 7; k++) {
    uint32_t fl = 0, acc = 0;
    double t0 = now_ns();
    for (long r = 0; r < reps; r++) {
      int rm = (int)(r % 5);
      for (int i = 0; i < N; i++) {
        switch (k) {
        case 0: acc += vt_f32_add(a[i], b[i], rm, &fl); break;
        case 1: acc += vt_f32_mul(a[i], b[i], rm, &fl); break;
        case 2: acc += vt_f32_div(a[i], b[i], rm, &fl); break;
        case 3: acc += vt_f32_sqrt(a[i] & 0x7fffffff, rm, &fl); break;
        case 4: acc += vt_f32_fma(a[i], b[i], c[i], rm, &fl); break;
        case 5: acc += vt_f32_to_i32(a[i], rm, &fl); break;
        default: acc += vt_i32_to_f32((int32_t)a[i], rm, &fl); break;
        }
      }
    }
    double ns = (now_ns() - t0) / ((double)reps * N);
    printf("  speed %-10s %.1f ns/op (checksum %08x)\n", names[k], ns, acc ^ fl);
  }
}

static void setup(void) {
  const char *seed = getenv("VT_FP_TEST_SEED");
  if (seed && *seed) rng_state = strtoull(seed, NULL, 0);
  emin_default = mpfr_get_emin();
  emax_default = mpfr_get_emax();
  mpfr_inits2(24, R, T, ZR, AR, (mpfr_ptr)0);
  mpfr_inits2(64, X, Y, Z, O, MID, MINNORM, (mpfr_ptr)0); /* X also holds 32-bit integers */
  mpfr_set_ui_2exp(MINNORM, 1, -126, MPFR_RNDN);
  printf("MPFR %s, scale %g, seed %016llx\n", mpfr_get_version(), scale(),
         (unsigned long long)rng_state);
}

TEST(init) {
  (void)st;
  setup();
}

RUN_TESTS(T(init), T(known_answers), T(rmm_oracle_sanity), T(add_vs_mpfr), T(sub_vs_mpfr),
          T(mul_vs_mpfr), T(div_vs_mpfr), T(sqrt_vs_mpfr), T(fma_vs_mpfr), T(fmsub_fnmsub_fnmadd_vs_mpfr),
          T(int_to_f32_vs_mpfr), T(f32_to_int_vs_mpfr), T(minmax_compare_rules), T(classify_rules),
          T(rec7_rsqrt7_spec), T(exp_ventus), T(speed))
