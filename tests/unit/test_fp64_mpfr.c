/* src/fp/fp64.c and src/fp/fp64_cvt.c against MPFR: every binary64
 * operation and every conversion involving 64-bit values, in every
 * rounding mode, on millions of random and targeted operands, results and
 * fflags compared bit-exactly (oracle: tests/unit/fp_oracle.h, docs/fp.md).
 * Also: hand-computed known answers (ties, tininess after rounding,
 * overflow by mode, zero signs, NaN rules, saturation), min/max/compares
 * and classify against the host's IEEE double comparisons and fpclassify,
 * exact conversions against the host's (double) conversions and MPFR,
 * vfrec7/vfrsqrt7 against an independent evaluation of the RVV 1.0
 * algorithm. Counts scale with VT_FP_TEST_SCALE (default 1, 0.1 under a
 * sanitizer or without NDEBUG); VT_FP_TEST_SEED changes the random seed. */
#include <stdint.h>

#include <math.h>
#include <time.h>

#include "check.h"
#include "fp/fp16.h"
#include "fp/fp64.h"
#include "fp_oracle.h"

#define CNAN64 0x7ff8000000000000ull
#define SIGN64 0x8000000000000000ull
#define INF64 0x7ff0000000000000ull
#define MAX64 0x7fefffffffffffffull

/* ---------- random operands ---------- */

static uint64_t rng_state = 0x6a09e667f3bcc909ull;
static uint64_t rnd64(void) { /* splitmix64 */
  uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
static uint32_t rnd32(void) { return (uint32_t)(rnd64() >> 32); }
static uint32_t rndn(uint32_t n) { return (uint32_t)(((rnd64() >> 32) * n) >> 32); }

static const uint64_t specials[] = {
    0x0000000000000000, 0x8000000000000000, 0x0000000000000001, 0x8000000000000001,
    0x0000000000000002, 0x000fffffffffffff, 0x800fffffffffffff, 0x0008000000000000,
    0x0008000000000001, 0x0007ffffffffffff, 0x0010000000000000, 0x8010000000000000,
    0x0010000000000001, 0x001fffffffffffff, 0x7fefffffffffffff, 0xffefffffffffffff,
    0x7feffffffffffffe, 0x7fe0000000000000, 0x7fd0000000000000, 0x7ff0000000000000,
    0xfff0000000000000, 0x7ff8000000000000, 0xfff8000000000000, 0x7ff8000000000001,
    0x7fffffffffffffff, 0x7ff0000000000001, 0xfff0000000000001, 0x7ff7ffffffffffff,
    0x7ff4000000000000, 0x3ff0000000000000, 0xbff0000000000000, 0x3ff0000000000001,
    0x3fefffffffffffff, 0x4000000000000000, 0x3fe0000000000000, 0xbfe0000000000000,
    0x3fdfffffffffffff, 0x3fe0000000000001, 0x3ff8000000000000, 0x4004000000000000,
    0x4008000000000000, 0x4330000000000000, 0x433fffffffffffff, 0x4340000000000000,
    0x41e0000000000000, 0xc1e0000000000000, 0x41dfffffffffffff, 0xc1e0000000200000,
    0x41f0000000000000, 0x41efffffffffffff, 0x43e0000000000000, 0xc3e0000000000000,
    0x43dfffffffffffff, 0x43f0000000000000, 0x43efffffffffffff, 0x3cb0000000000000,
    0x3ca0000000000000, 0x400921fb54442d18, 0x3fb999999999999a, 0x3ff6a09e667f3bcd,
    0x47efffffe0000000, 0x3690000000000000, 0x36a0000000000000, 0x380fffffe0000000,
    0x40effe0000000000, 0x3e70000000000000};
#define NSPECIALS (sizeof specials / sizeof specials[0])

/* A 52-bit fraction with structure: few bits, runs of ones, clear low bits. */
static uint64_t rnd_frac(void) {
  const uint64_t m = 0x000fffffffffffffull;
  switch (rndn(8)) {
  case 0: return 0;
  case 1: return m;
  case 2: return ((uint64_t)1 << rndn(52)) | (rndn(2) ? (uint64_t)1 << rndn(52) : 0);
  case 3: return ((m >> rndn(52)) << rndn(52)) & m;
  case 4: return rnd64() & m & ~(((uint64_t)1 << rndn(53)) - 1);
  case 5: return (rnd64() | (((uint64_t)1 << rndn(53)) - 1)) & m;
  default: return rnd64() & m;
  }
}
static uint64_t make_f64(uint32_t sign, int exp, uint64_t frac) {
  if (exp < 0) exp = 0;
  if (exp > 2046) exp = 2046;
  return ((uint64_t)sign << 63) | ((uint64_t)exp << 52) | (frac & 0x000fffffffffffffull);
}
static int f64_exp(uint64_t a) { return (int)((a >> 52) & 0x7ff); }
static uint64_t rnd_f64(void) {
  uint32_t r = rndn(16);
  if (r < 4) return rnd64();
  if (r < 6) return specials[rndn(NSPECIALS)];
  uint32_t s = rndn(2);
  if (r < 10) return make_f64(s, (int)rndn(2047), rnd_frac());
  if (r < 13) return make_f64(s, 993 + (int)rndn(60), rnd_frac());
  static const int edge[] = {0, 0, 0, 1, 2, 3, 52, 53, 54, 1022, 1023, 1024, 2044, 2045, 2046};
  return make_f64(s, edge[rndn(sizeof edge / sizeof edge[0])], rnd_frac());
}
/* a moved by a few ulps (stays finite) */
static uint64_t nudge(uint64_t a) {
  int d = (int)rndn(7) - 3;
  uint64_t m = a & ~SIGN64;
  if (m >= INF64) return a;
  if (d < 0 && m < (uint64_t)-d) return a & SIGN64;
  m += (uint64_t)(int64_t)d;
  if (m > MAX64) m = MAX64;
  return (a & SIGN64) | m;
}
static uint64_t dbits(double d) {
  uint64_t u;
  memcpy(&u, &d, 8);
  return u;
}
static double bdbl(uint64_t u) {
  double d;
  memcpy(&d, &u, 8);
  return d;
}
static uint32_t fbits(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}
static float bflt(uint32_t u) {
  float f;
  memcpy(&f, &u, 4);
  return f;
}
static int is_nan64(uint64_t a) { return (a & ~SIGN64) > INF64; }
static int is_snan64(uint64_t a) { return is_nan64(a) && !(a & 0x0008000000000000ull); }

/* ---------- hand-computed known answers (arithmetic) ---------- */

typedef struct kat {
  int op;
  uint64_t a, b, c;
  int rm;
  uint64_t res;
  uint32_t flags;
} kat;

static const kat known[] = {
    /* ties: 1 + 2^-53, (1 + 2^-52) + 2^-53 */
    {OP_ADD, 0x3ff0000000000000, 0x3ca0000000000000, 0, VT_RM_RNE, 0x3ff0000000000000, NX},
    {OP_ADD, 0x3ff0000000000000, 0x3ca0000000000000, 0, VT_RM_RMM, 0x3ff0000000000001, NX},
    {OP_ADD, 0x3ff0000000000000, 0x3ca0000000000000, 0, VT_RM_RUP, 0x3ff0000000000001, NX},
    {OP_ADD, 0x3ff0000000000000, 0x3ca0000000000000, 0, VT_RM_RDN, 0x3ff0000000000000, NX},
    {OP_ADD, 0x3ff0000000000000, 0x3ca0000000000000, 0, VT_RM_RTZ, 0x3ff0000000000000, NX},
    {OP_ADD, 0x3ff0000000000001, 0x3ca0000000000000, 0, VT_RM_RNE, 0x3ff0000000000002, NX},
    {OP_ADD, 0xbff0000000000000, 0xbca0000000000000, 0, VT_RM_RMM, 0xbff0000000000001, NX},
    {OP_ADD, 0xbff0000000000000, 0xbca0000000000000, 0, VT_RM_RDN, 0xbff0000000000001, NX},
    /* exact results raise nothing */
    {OP_ADD, 0x3ff0000000000000, 0x3cb0000000000000, 0, VT_RM_RNE, 0x3ff0000000000001, 0},
    /* exact zero sums: +0, or -0 when rounding down */
    {OP_ADD, 0x3ff0000000000000, 0xbff0000000000000, 0, VT_RM_RNE, 0x0000000000000000, 0},
    {OP_ADD, 0x3ff0000000000000, 0xbff0000000000000, 0, VT_RM_RDN, 0x8000000000000000, 0},
    {OP_ADD, 0x8000000000000000, 0x8000000000000000, 0, VT_RM_RNE, 0x8000000000000000, 0},
    {OP_SUB, 0x0000000000000000, 0x0000000000000000, 0, VT_RM_RDN, 0x8000000000000000, 0},
    {OP_SUB, 0x0000000000000000, 0x0000000000000000, 0, VT_RM_RUP, 0x0000000000000000, 0},
    /* tininess AFTER rounding: 2^-1022 (1 - 2^-28) * (1 + 2^-28) = 2^-1022 (1 - 2^-56)
     * rounds to 2^-1022 with unbounded exponent in RNE/RUP/RMM: not tiny */
    {OP_MUL, 0x000fffffff000000, 0x3ff0000001000000, 0, VT_RM_RNE, 0x0010000000000000, NX},
    {OP_MUL, 0x000fffffff000000, 0x3ff0000001000000, 0, VT_RM_RUP, 0x0010000000000000, NX},
    {OP_MUL, 0x000fffffff000000, 0x3ff0000001000000, 0, VT_RM_RMM, 0x0010000000000000, NX},
    {OP_MUL, 0x000fffffff000000, 0x3ff0000001000000, 0, VT_RM_RTZ, 0x000fffffffffffff, NX | UF},
    {OP_MUL, 0x000fffffff000000, 0x3ff0000001000000, 0, VT_RM_RDN, 0x000fffffffffffff, NX | UF},
    /* (1 - 2^-53) 2^-1022 has 53 bits: tiny; a subnormal tie, RNE to even */
    {OP_MUL, 0x3fefffffffffffff, 0x0010000000000000, 0, VT_RM_RNE, 0x0010000000000000, NX | UF},
    {OP_MUL, 0x3fefffffffffffff, 0x0010000000000000, 0, VT_RM_RTZ, 0x000fffffffffffff, NX | UF},
    {OP_MUL, 0x0000000000000001, 0x3fe0000000000000, 0, VT_RM_RNE, 0x0000000000000000, NX | UF},
    {OP_MUL, 0x0000000000000001, 0x3fe0000000000000, 0, VT_RM_RMM, 0x0000000000000001, NX | UF},
    {OP_MUL, 0x8000000000000001, 0x3fe0000000000000, 0, VT_RM_RDN, 0x8000000000000001, NX | UF},
    {OP_MUL, 0x8000000000000001, 0x3fe0000000000000, 0, VT_RM_RUP, 0x8000000000000000, NX | UF},
    {OP_MUL, 0x0000000000000003, 0x3fe0000000000000, 0, VT_RM_RNE, 0x0000000000000002, NX | UF},
    {OP_MUL, 0x0008000000000000, 0x4000000000000000, 0, VT_RM_RNE, 0x0010000000000000, 0},
    {OP_MUL, 0x0000000000000001, 0x3ff0000000000000, 0, VT_RM_RNE, 0x0000000000000001, 0},
    {OP_DIV, 0x0010000000000000, 0x4000000000000000, 0, VT_RM_RNE, 0x0008000000000000, 0},
    /* overflow by rounding mode */
    {OP_MUL, MAX64, 0x4000000000000000, 0, VT_RM_RNE, INF64, OF | NX},
    {OP_MUL, MAX64, 0x4000000000000000, 0, VT_RM_RTZ, MAX64, OF | NX},
    {OP_MUL, MAX64, 0x4000000000000000, 0, VT_RM_RDN, MAX64, OF | NX},
    {OP_MUL, MAX64, 0x4000000000000000, 0, VT_RM_RUP, INF64, OF | NX},
    {OP_MUL, MAX64 | SIGN64, 0x4000000000000000, 0, VT_RM_RUP, MAX64 | SIGN64, OF | NX},
    {OP_MUL, MAX64 | SIGN64, 0x4000000000000000, 0, VT_RM_RDN, INF64 | SIGN64, OF | NX},
    /* largest + half an ulp (2^970): a tie, the largest is odd -> overflow;
     * RTZ gives the largest without overflow; + a quarter ulp in RMM */
    {OP_ADD, MAX64, 0x7c90000000000000, 0, VT_RM_RNE, INF64, OF | NX},
    {OP_ADD, MAX64, 0x7c90000000000000, 0, VT_RM_RMM, INF64, OF | NX},
    {OP_ADD, MAX64, 0x7c90000000000000, 0, VT_RM_RTZ, MAX64, NX},
    {OP_ADD, MAX64, 0x7c80000000000000, 0, VT_RM_RMM, MAX64, NX},
    {OP_ADD, MAX64, 0x7c80000000000000, 0, VT_RM_RUP, INF64, OF | NX},
    /* invalid and divide by zero */
    {OP_ADD, INF64, INF64 | SIGN64, 0, VT_RM_RNE, CNAN64, NV},
    {OP_SUB, INF64, INF64, 0, VT_RM_RNE, CNAN64, NV},
    {OP_MUL, INF64, 0, 0, VT_RM_RNE, CNAN64, NV},
    {OP_DIV, 0, SIGN64, 0, VT_RM_RNE, CNAN64, NV},
    {OP_DIV, INF64, INF64 | SIGN64, 0, VT_RM_RNE, CNAN64, NV},
    {OP_DIV, 0x3ff0000000000000, SIGN64, 0, VT_RM_RNE, INF64 | SIGN64, DZ},
    {OP_DIV, INF64, 0, 0, VT_RM_RNE, INF64, 0},
    {OP_DIV, 0x3ff0000000000000, INF64 | SIGN64, 0, VT_RM_RNE, SIGN64, 0},
    {OP_DIV, 0x3ff0000000000000, 0x4008000000000000, 0, VT_RM_RNE, 0x3fd5555555555555, NX},
    {OP_DIV, 0x3ff0000000000000, 0x4008000000000000, 0, VT_RM_RUP, 0x3fd5555555555556, NX},
    {OP_SQRT, 0xbff0000000000000, 0, 0, VT_RM_RNE, CNAN64, NV},
    {OP_SQRT, 0x8000000000000001, 0, 0, VT_RM_RNE, CNAN64, NV},
    {OP_SQRT, SIGN64, 0, 0, VT_RM_RNE, SIGN64, 0},
    {OP_SQRT, INF64, 0, 0, VT_RM_RNE, INF64, 0},
    {OP_SQRT, 0x4010000000000000, 0, 0, VT_RM_RNE, 0x4000000000000000, 0},
    {OP_SQRT, 0x4000000000000000, 0, 0, VT_RM_RNE, 0x3ff6a09e667f3bcd, NX},
    {OP_SQRT, 0x4000000000000000, 0, 0, VT_RM_RTZ, 0x3ff6a09e667f3bcc, NX},
    {OP_SQRT, 0x0000000000000001, 0, 0, VT_RM_RNE, 0x1e60000000000000, 0}, /* 2^-537 */
    /* NaN operands give the canonical NaN; only sNaN raises NV */
    {OP_ADD, 0x7ff8000000012345, 0x3ff0000000000000, 0, VT_RM_RNE, CNAN64, 0},
    {OP_ADD, 0xfff8000000000000, 0x3ff0000000000000, 0, VT_RM_RNE, CNAN64, 0},
    {OP_MUL, 0x7ff0000000000001, 0x3ff0000000000000, 0, VT_RM_RNE, CNAN64, NV},
    {OP_DIV, 0x3ff0000000000000, 0xfff4000000000000, 0, VT_RM_RNE, CNAN64, NV},
    {OP_SQRT, 0x7ff7ffffffffffff, 0, 0, VT_RM_RNE, CNAN64, NV},
    /* fma: one rounding; (1+2^-52)^2 - (1+2^-51) = 2^-104 exactly */
    {OP_FMA, 0x3ff0000000000001, 0x3ff0000000000001, 0xbff0000000000002, VT_RM_RNE, 0x3970000000000000, 0},
    {OP_FMA, INF64, 0, CNAN64, VT_RM_RNE, CNAN64, NV},
    {OP_FMA, INF64, 0x3ff0000000000000, INF64 | SIGN64, VT_RM_RNE, CNAN64, NV},
    {OP_FMA, 0, 0x3ff0000000000000, SIGN64, VT_RM_RNE, 0, 0},
    {OP_FMA, SIGN64, 0x3ff0000000000000, SIGN64, VT_RM_RNE, SIGN64, 0},
    {OP_FMA, 0x3ff0000000000000, 0x3ff0000000000000, 0xbff0000000000000, VT_RM_RDN, SIGN64, 0},
    {OP_FMA, 0x3ff0000000000000, 0x3ff0000000000000, 0xbff0000000000000, VT_RM_RNE, 0, 0},
    /* a tiny product under a huge addend: only a sticky bit */
    {OP_FMA, 0x0000000000000001, 0x0000000000000001, 0x3ff0000000000000, VT_RM_RUP, 0x3ff0000000000001, NX},
    {OP_FMA, 0x8000000000000001, 0x0000000000000001, 0x3ff0000000000000, VT_RM_RTZ, 0x3fefffffffffffff, NX},
};

static uint64_t run_known(const kat *k, uint32_t *f) {
  switch (k->op) {
  case OP_ADD: return vt_f64_add(k->a, k->b, k->rm, f);
  case OP_SUB: return vt_f64_sub(k->a, k->b, k->rm, f);
  case OP_MUL: return vt_f64_mul(k->a, k->b, k->rm, f);
  case OP_DIV: return vt_f64_div(k->a, k->b, k->rm, f);
  case OP_SQRT: return vt_f64_sqrt(k->a, k->rm, f);
  default: return vt_f64_fma(k->a, k->b, k->c, k->rm, f);
  }
}

TEST(known_answers) {
  for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
    const kat *k = &known[i];
    uint32_t f = 0, of = 0;
    uint64_t r = run_known(k, &f);
    uint64_t orr = oracle(O_F64, k->op, k->a, k->b, k->c, k->rm, &of);
    if (r != k->res || f != k->flags) {
      st->failed_checks++;
      fprintf(stderr, "known answer %zu (%s %s): got %016llx/%02x expected %016llx/%02x\n", i,
              op_name[k->op], rm_name[k->rm], (unsigned long long)r, f, (unsigned long long)k->res,
              k->flags);
    }
    if (orr != k->res || of != k->flags) { /* the oracle must agree too */
      st->failed_checks++;
      fprintf(stderr, "oracle disagrees with known answer %zu: %016llx/%02x\n", i, (unsigned long long)orr, of);
    }
  }
  /* flags accumulate, never cleared */
  uint32_t f = VT_FFLAG_DZ;
  vt_f64_add(0x3ff0000000000000, 0x3ca0000000000000, VT_RM_RNE, &f);
  CHECK_EQ_U32(st, f, VT_FFLAG_DZ | VT_FFLAG_NX);
  vt_f64_add(0x3ff0000000000000, 0x3ff0000000000000, VT_RM_RNE, &f);
  CHECK_EQ_U32(st, f, VT_FFLAG_DZ | VT_FFLAG_NX);
  /* the sign-variant wrappers flip the right operands */
  f = 0;
  CHECK(st, vt_f64_fmsub(0x3ff0000000000000, 0x4000000000000000, 0x3ff0000000000000, 0, &f) == 0x3ff0000000000000);
  CHECK(st, vt_f64_fnmsub(0x3ff0000000000000, 0x4000000000000000, 0x3ff0000000000000, 0, &f) == 0xbff0000000000000);
  CHECK(st, vt_f64_fnmadd(0x3ff0000000000000, 0x4000000000000000, 0x3ff0000000000000, 0, &f) == 0xc008000000000000);
  CHECK_EQ_U32(st, f, 0);
}

/* RMM differs from RNE exactly at ties: check the oracle finds them. */
TEST(rmm_oracle_sanity) {
  long ties = 0, n = count(20000);
  for (long i = 0; i < n; i++) {
    uint64_t a = make_f64(0, 900 + (int)rndn(200), rnd_frac());
    uint64_t b = make_f64(0, f64_exp(a) - 53, 0);
    uint32_t f1, f2;
    uint64_t rne = oracle(O_F64, OP_ADD, a, b, 0, VT_RM_RNE, &f1);
    uint64_t rmm = oracle(O_F64, OP_ADD, a, b, 0, VT_RM_RMM, &f2);
    /* a + half an ulp of a: RMM rounds away, RNE to even */
    CHECK(st, rmm == a + 1);
    CHECK(st, rne == ((a & 1) ? a + 1 : a));
    ties += rne != rmm;
  }
  printf("  %ld RMM/RNE tie differences out of %ld\n", ties, n);
  CHECK(st, ties > 0);
}

/* ---------- arithmetic against MPFR ---------- */

static void gen_pair(int op, uint64_t *a, uint64_t *b) {
  *a = rnd_f64();
  uint32_t r = rndn(8);
  if (r < 3) {
    *b = rnd_f64();
    return;
  }
  int ea = f64_exp(*a);
  if (ea == 2047) ea = 1023;
  /* target biased exponents of a product / quotient near the limits */
  static const int tgt[] = {-60, -54, -53, -52, -51, -2, -1, 0, 1, 2, 3, 2044, 2045, 2046, 2047, 2048};
  int t = rndn(3) ? tgt[rndn(sizeof tgt / sizeof tgt[0])] : (int)rndn(2200) - 80;
  int eb;
  switch (op) {
  case OP_ADD:
  case OP_SUB:
    if (r == 3) { /* near-cancellation */
      *b = nudge(*a) ^ (rndn(2) ? SIGN64 : 0);
      return;
    }
    /* exponent distance around the rounding and the jamming positions */
    eb = ea - (int)rndn(66) + (rndn(4) == 0 ? 2 : 0);
    break;
  case OP_MUL: eb = t - ea + 1023; break;
  case OP_DIV: eb = ea - t + 1023; break;
  default: eb = (int)rndn(2047); break;
  }
  if (eb < 0 || eb > 2046) {
    *b = rnd_f64();
    return;
  }
  *b = make_f64(rndn(2), eb, rnd_frac());
}

typedef uint64_t (*fn2)(uint64_t, uint64_t, int, uint32_t *);
typedef uint64_t (*fn3)(uint64_t, uint64_t, uint64_t, int, uint32_t *);

static void run_binary(check_state *st, int op, fn2 f, long base) {
  long n = count(base);
  clock_t t0 = clock();
  for (int rm = 0; rm < 5; rm++) {
    stats s = {0, 0};
    for (long i = 0; i < n; i++) {
      uint64_t a, b;
      uint32_t ef, gf = 0;
      gen_pair(op, &a, &b);
      uint64_t e = oracle(O_F64, op, a, b, 0, rm, &ef);
      uint64_t g = f(a, b, rm, &gf);
      if (g == e && gf == ef) {
        s.cases++;
        continue;
      }
      char in[80];
      snprintf(in, sizeof in, "%016llx %016llx %s", (unsigned long long)a, (unsigned long long)b, rm_name[rm]);
      report(st, &s, op_name[op], in, g, gf, e, ef);
    }
    printf("  %-6s %s: %ld cases, %ld mismatches\n", op_name[op], rm_name[rm], s.cases, s.fails);
  }
  printf("  (%.1f s)\n", (double)(clock() - t0) / CLOCKS_PER_SEC);
}

TEST(add_vs_mpfr) { run_binary(st, OP_ADD, vt_f64_add, 800000); }
TEST(sub_vs_mpfr) { run_binary(st, OP_SUB, vt_f64_sub, 400000); }
TEST(mul_vs_mpfr) { run_binary(st, OP_MUL, vt_f64_mul, 800000); }
TEST(div_vs_mpfr) { run_binary(st, OP_DIV, vt_f64_div, 600000); }

TEST(sqrt_vs_mpfr) {
  long n = count(600000);
  for (int rm = 0; rm < 5; rm++) {
    stats s = {0, 0};
    for (long i = 0; i < n; i++) {
      uint64_t a;
      uint32_t r = rndn(8), ef, gf = 0;
      if (r == 0) { /* exact squares (k^2 < 2^52 is exact) and their neighbours */
        uint64_t k = 1 + (rnd64() >> (38 + rndn(26)));
        double sq = ldexp((double)(k * k), 2 * ((int)rndn(1060) - 530));
        a = dbits(sq);
        if (rndn(2)) a = nudge(a);
      } else if (r < 6) {
        a = rnd_f64() & ~SIGN64;
      } else {
        a = rnd_f64();
      }
      uint64_t e = oracle(O_F64, OP_SQRT, a, 0, 0, rm, &ef);
      uint64_t g = vt_f64_sqrt(a, rm, &gf);
      char in[64];
      snprintf(in, sizeof in, "%016llx %s", (unsigned long long)a, rm_name[rm]);
      report(st, &s, "sqrt", in, g, gf, e, ef);
    }
    printf("  sqrt   %s: %ld cases, %ld mismatches\n", rm_name[rm], s.cases, s.fails);
  }
}

static void gen_triple(uint64_t *a, uint64_t *b, uint64_t *c) {
  uint32_t r = rndn(9);
  if (r < 2) {
    *a = rnd_f64();
    *b = rnd_f64();
    *c = rnd_f64();
    return;
  }
  gen_pair(OP_MUL, a, b);
  uint64_t pb = dbits(bdbl(*a) * bdbl(*b)); /* near the exact product (host) */
  if ((pb & ~SIGN64) >= INF64 || (pb & ~SIGN64) == 0) {
    *c = rnd_f64();
    return;
  }
  int ep = f64_exp(pb);
  switch (r) {
  case 2:
  case 3: *c = nudge(pb) ^ SIGN64; break; /* cancellation */
  case 4: *c = nudge(pb) ^ (rndn(2) ? SIGN64 : 0); break;
  case 5: *c = make_f64(rndn(2), ep - 50 - (int)rndn(70), rnd_frac()); break; /* sticky range */
  case 6: *c = make_f64(rndn(2), ep + 1 + (int)rndn(120), rnd_frac()); break; /* c dominates */
  case 7: *c = make_f64(rndn(2), ep - 100 - (int)rndn(40), rnd_frac()); break;
  default: *c = make_f64(rndn(2), ep - 3 + (int)rndn(7), rnd_frac()); break;
  }
}

static void run_fma(check_state *st, int op, fn3 f, long base) {
  long n = count(base);
  clock_t t0 = clock();
  for (int rm = 0; rm < 5; rm++) {
    stats s = {0, 0};
    for (long i = 0; i < n; i++) {
      uint64_t a, b, c;
      uint32_t ef, gf = 0;
      gen_triple(&a, &b, &c);
      if (op == OP_FMSUB || op == OP_FNMADD) c ^= rndn(4) ? SIGN64 : 0; /* keep cancellations */
      if (op == OP_FNMSUB || op == OP_FNMADD) a ^= rndn(4) ? SIGN64 : 0;
      uint64_t e = oracle(O_F64, op, a, b, c, rm, &ef);
      uint64_t g = f(a, b, c, rm, &gf);
      char in[100];
      snprintf(in, sizeof in, "%016llx %016llx %016llx %s", (unsigned long long)a, (unsigned long long)b,
               (unsigned long long)c, rm_name[rm]);
      report(st, &s, op_name[op], in, g, gf, e, ef);
    }
    printf("  %-6s %s: %ld cases, %ld mismatches\n", op_name[op], rm_name[rm], s.cases, s.fails);
  }
  printf("  (%.1f s)\n", (double)(clock() - t0) / CLOCKS_PER_SEC);
}

TEST(fma_vs_mpfr) { run_fma(st, OP_FMA, vt_f64_fma, 800000); }
TEST(fmsub_fnmsub_fnmadd_vs_mpfr) {
  run_fma(st, OP_FMSUB, vt_f64_fmsub, 120000);
  run_fma(st, OP_FNMSUB, vt_f64_fnmsub, 120000);
  run_fma(st, OP_FNMADD, vt_f64_fnmadd, 120000);
}

/* ---------- float -> integer ---------- */

/* binary64 inputs for float -> integer: halfway values, the integer
 * ranges' limits and their neighbours, small and large magnitudes */
static uint64_t rnd_cvt_f64(void) {
  static const uint64_t lim[] = {0x41e0000000000000, 0xc1e0000000000000, 0x41f0000000000000,
                                 0xc1f0000000000000, 0x43e0000000000000, 0xc3e0000000000000,
                                 0x43f0000000000000, 0xc3f0000000000000, 0x3ff0000000000000,
                                 0xbff0000000000000, 0x3fe0000000000000, 0xbfe0000000000000};
  uint32_t r = rndn(8);
  if (r < 2) return rnd_f64();
  if (r == 2) return nudge(specials[rndn(NSPECIALS)]);
  if (r == 3) return nudge(lim[rndn(sizeof lim / sizeof lim[0])]);
  if (r == 4) { /* n + k/4, exact for n < 2^50 */
    double d = (double)(rnd64() >> (14 + rndn(50))) + 0.25 * rndn(4);
    return dbits(rndn(2) ? -d : d);
  }
  if (r == 5) { /* near 2^30 .. 2^64: 2^k + n + j/4 (rounded by the host above 2^53) */
    double d = ldexp(1.0, 30 + (int)rndn(35)) + (double)((int)rndn(9) - 4) + 0.25 * rndn(4);
    return dbits(rndn(2) ? -d : d);
  }
  return make_f64(rndn(2), 950 + (int)rndn(140), rnd_frac());
}

static uint32_t rnd_cvt_f32(void) {
  static const uint32_t lim[] = {0x4f000000, 0xcf000000, 0x4f800000, 0xcf800000, 0x5f000000,
                                 0xdf000000, 0x5f800000, 0xdf800000, 0x3f800000, 0xbf800000,
                                 0x3f000000, 0xbf000000, 0x7f800000, 0xff800000, 0x7fc00000,
                                 0x7f800001, 0x00000001, 0x80000001, 0x7f7fffff, 0x00000000};
  uint32_t r = rndn(8);
  if (r < 2) return rnd32();
  if (r < 4) { /* a limit moved by a few ulps */
    uint32_t a = lim[rndn(sizeof lim / sizeof lim[0])];
    if ((a & 0x7fffffff) >= 0x7f800000 || (a & 0x7fffffff) < 8) return a;
    return a + (uint32_t)((int)rndn(7) - 3);
  }
  if (r == 4) { /* n + k/4 */
    float f = (float)(rnd32() >> (8 + rndn(24))) + 0.25f * (float)rndn(4);
    return fbits(rndn(2) ? -f : f);
  }
  uint32_t frac = rndn(2) ? rnd32() & 0x7fffff : (rnd32() & 0x7fffff) >> rndn(23) << rndn(23);
  return (rndn(2) ? 0x80000000u : 0) | (uint32_t)(100 + rndn(100)) << 23 | (frac & 0x7fffff);
}

typedef struct to_int_case {
  const char *name;
  int src64, bits, is_signed;
} to_int_case;

static uint64_t call_to_int(const to_int_case *c, uint64_t a, int rm, uint32_t *f) {
  if (c->src64) {
    if (c->bits == 32) return c->is_signed ? vt_f64_to_i32(a, rm, f) : vt_f64_to_u32(a, rm, f);
    return c->is_signed ? vt_f64_to_i64(a, rm, f) : vt_f64_to_u64(a, rm, f);
  }
  return c->is_signed ? vt_f32_to_i64((uint32_t)a, rm, f) : vt_f32_to_u64((uint32_t)a, rm, f);
}

TEST(float_to_int_vs_mpfr) {
  static const to_int_case cases[] = {
      {"f64->i32", 1, 32, 1}, {"f64->u32", 1, 32, 0}, {"f64->i64", 1, 64, 1},
      {"f64->u64", 1, 64, 0}, {"f32->i64", 0, 64, 1}, {"f32->u64", 0, 64, 0}};
  long n = count(200000);
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    const to_int_case *c = &cases[k];
    for (int rm = 0; rm < 5; rm++) {
      stats s = {0, 0};
      for (long i = 0; i < n; i++) {
        uint64_t a = c->src64 ? rnd_cvt_f64() : rnd_cvt_f32();
        uint32_t ef, gf = 0;
        uint64_t e = oracle_to_int(c->src64 ? O_F64 : O_F32, a, c->bits, c->is_signed, rm, &ef);
        uint64_t g = call_to_int(c, a, rm, &gf);
        char in[64];
        snprintf(in, sizeof in, "%016llx %s", (unsigned long long)a, rm_name[rm]);
        report(st, &s, c->name, in, g, gf, e, ef);
      }
      printf("  %s %s: %ld cases, %ld mismatches\n", c->name, rm_name[rm], s.cases, s.fails);
    }
  }
}

TEST(float_to_int_known) {
  /* RISC-V saturation (isa2025.md Appendix C6), hand-computed */
  uint32_t f = 0;
  CHECK_EQ_U32(st, vt_f64_to_i32(0x41e0000000000000, 0, &f), 0x7fffffff); /* 2^31 */
  CHECK_EQ_U32(st, f, NV);
  f = 0;
  CHECK_EQ_U32(st, vt_f64_to_i32(0xc1e0000000000000, 0, &f), 0x80000000); /* -2^31 exact */
  CHECK_EQ_U32(st, f, 0);
  CHECK_EQ_U32(st, vt_f64_to_i32(0xc1e0000000100000, VT_RM_RNE, &f), 0x80000000); /* -2^31-0.5 */
  CHECK_EQ_U32(st, f, NX);
  f = 0;
  CHECK_EQ_U32(st, vt_f64_to_i32(0xc1e0000000100000, VT_RM_RMM, &f), 0x80000000);
  CHECK_EQ_U32(st, f, NV);
  f = 0;
  CHECK_EQ_U32(st, vt_f64_to_u32(0xbfd999999999999a, VT_RM_RNE, &f), 0); /* -0.4 -> -0: valid */
  CHECK_EQ_U32(st, f, NX);
  f = 0;
  CHECK_EQ_U32(st, vt_f64_to_u32(0xbfe3333333333333, VT_RM_RNE, &f), 0); /* -0.6 -> -1 */
  CHECK_EQ_U32(st, f, NV);
  f = 0;
  CHECK_EQ_U32(st, vt_f64_to_u32(0xbfe3333333333333, VT_RM_RTZ, &f), 0);
  CHECK_EQ_U32(st, f, NX);
  f = 0;
  CHECK_EQ_U32(st, vt_f64_to_u32(CNAN64, 0, &f), 0xffffffff);
  CHECK_EQ_U32(st, f, NV);
  f = 0;
  CHECK(st, vt_f64_to_i64(0x43e0000000000000, 0, &f) == 0x7fffffffffffffffull); /* 2^63 */
  CHECK(st, vt_f64_to_i64(0xc3e0000000000000, 0, &f) == 0x8000000000000000ull);
  CHECK(st, vt_f64_to_i64(0xfff0000000000000, 0, &f) == 0x8000000000000000ull);
  CHECK(st, vt_f64_to_i64(0x7ff0000000000001, 0, &f) == 0x7fffffffffffffffull);
  CHECK(st, vt_f64_to_i64(0xfff8000000000000, 0, &f) == 0x7fffffffffffffffull); /* NaN: largest */
  CHECK_EQ_U32(st, f, NV);
  f = 0;
  CHECK(st, vt_f64_to_u64(0x43efffffffffffff, 0, &f) == 0xfffffffffffff800ull);
  CHECK(st, vt_f64_to_i64(0x4330000000000001, 0, &f) == 0x0010000000000001ull);
  CHECK(st, vt_f64_to_i64(0xc330000000000001, 0, &f) == 0xffefffffffffffffull);
  CHECK_EQ_U32(st, f, 0);
  CHECK(st, vt_f64_to_u64(0x43f0000000000000, 0, &f) == ~0ull); /* 2^64 */
  CHECK(st, vt_f64_to_u64(0xbff0000000000000, 0, &f) == 0);     /* -1 */
  CHECK(st, vt_f64_to_u64(0xfff0000000000000, 0, &f) == 0);
  CHECK_EQ_U32(st, f, NV);
  f = 0;
  CHECK(st, vt_f64_to_i64(0x3ff8000000000000, VT_RM_RNE, &f) == 2); /* 1.5 */
  CHECK(st, vt_f64_to_i64(0x4004000000000000, VT_RM_RNE, &f) == 2); /* 2.5 */
  CHECK(st, vt_f64_to_i64(0x4004000000000000, VT_RM_RMM, &f) == 3);
  CHECK(st, vt_f64_to_i64(0xc004000000000000, VT_RM_RDN, &f) == (uint64_t)-3);
  CHECK(st, vt_f64_to_i64(0xc004000000000000, VT_RM_RUP, &f) == (uint64_t)-2);
  CHECK(st, vt_f64_to_i64(0x0000000000000001, VT_RM_RUP, &f) == 1);
  CHECK(st, vt_f64_to_i64(0x8000000000000001, VT_RM_RUP, &f) == 0);
  CHECK_EQ_U32(st, f, NX);
  f = 0;
  CHECK(st, vt_f32_to_i64(0x5f000000, 0, &f) == 0x7fffffffffffffffull); /* 2^63 */
  CHECK_EQ_U32(st, f, NV);
  f = 0;
  CHECK(st, vt_f32_to_i64(0xdf000000, 0, &f) == 0x8000000000000000ull); /* -2^63 */
  CHECK(st, vt_f32_to_u64(0x5f7fffff, 0, &f) == 0xffffff0000000000ull);
  CHECK(st, vt_f32_to_i64(0x80000000, 0, &f) == 0);
  CHECK_EQ_U32(st, f, 0);
  CHECK(st, vt_f32_to_u64(0x5f800000, 0, &f) == ~0ull); /* 2^64 */
  CHECK(st, vt_f32_to_u64(0x7fc00000, 0, &f) == ~0ull);
  CHECK(st, vt_f32_to_i64(0x7fc00000, 0, &f) == 0x7fffffffffffffffull);
  CHECK_EQ_U32(st, f, NV);
}

/* ---------- integer -> float ---------- */

/* 64-bit integers biased to ties and near-ties at the p-bit rounding
 * position of the destination format */
static uint64_t rnd_int64(int p) {
  static const uint64_t sp[] = {0,
                                1,
                                ~0ull,
                                0x7fffffffffffffffull,
                                0x8000000000000000ull,
                                0x8000000000000001ull,
                                0x0020000000000000ull,
                                0x0020000000000001ull,
                                0x0020000000000002ull,
                                0x0020000000000003ull,
                                0x001fffffffffffffull,
                                0x0000000001000001ull,
                                0x0000000001000003ull,
                                0xfffffffffffff800ull,
                                0xfffffffffffffc00ull,
                                0xfffffffffffffbffull,
                                0x7ffffffffffffe00ull,
                                0x7ffffffffffffdffull,
                                0xffffff8000000000ull,
                                0xffffff7fffffffffull};
  uint32_t r = rndn(8);
  if (r == 0) return sp[rndn(sizeof sp / sizeof sp[0])];
  if (r < 3) return rnd64();
  if (r < 5) return rnd64() >> rndn(64);
  int len = p + 1 + (int)rndn((uint32_t)(64 - p)); /* bit length */
  int sh = len - p;                                /* bits rounded away */
  uint64_t v = (rnd64() | ((uint64_t)1 << 63)) >> (64 - len);
  uint64_t low = ((uint64_t)1 << (sh - 1)) + (uint64_t)(int64_t)((int)rndn(3) - 1);
  v = (v & ~(((uint64_t)1 << sh) - 1)) | (low & (((uint64_t)1 << sh) - 1));
  return v;
}

TEST(int_to_float_vs_mpfr) {
  long n = count(200000);
  for (int k = 0; k < 4; k++) {
    int to64 = k < 2, sgn = k % 2 == 0;
    const char *name = to64 ? (sgn ? "i64->f64" : "u64->f64") : (sgn ? "i64->f32" : "u64->f32");
    for (int rm = 0; rm < 5; rm++) {
      stats s = {0, 0};
      for (long i = 0; i < n; i++) {
        uint64_t x = rnd_int64(to64 ? 53 : 24);
        if (sgn && rndn(2)) x = 0 - x;
        uint32_t ef = 0, gf = 0;
        uint64_t g;
        if (sgn) {
          mpfr_set_sj(X, (intmax_t)(int64_t)x, MPFR_RNDN);
        } else {
          mpfr_set_uj(X, (uintmax_t)x, MPFR_RNDN);
        }
        uint64_t e = oracle_round(to64 ? O_F64 : O_F32, OP_CVT, rm, &ef);
        if (to64)
          g = sgn ? vt_i64_to_f64((int64_t)x, rm, &gf) : vt_u64_to_f64(x, rm, &gf);
        else
          g = sgn ? vt_i64_to_f32((int64_t)x, rm, &gf) : vt_u64_to_f32(x, rm, &gf);
        char in[64];
        snprintf(in, sizeof in, "%016llx %s", (unsigned long long)x, rm_name[rm]);
        report(st, &s, name, in, g, gf, e, ef);
      }
      printf("  %s %s: %ld cases, %ld mismatches\n", name, rm_name[rm], s.cases, s.fails);
    }
  }
  /* hand-computed */
  uint32_t f = 0;
  CHECK(st, vt_i64_to_f64(0x0020000000000001, VT_RM_RNE, &f) == 0x4340000000000000ull); /* 2^53+1 */
  CHECK(st, vt_i64_to_f64(0x0020000000000001, VT_RM_RUP, &f) == 0x4340000000000001ull);
  CHECK(st, vt_i64_to_f64(0x0020000000000003, VT_RM_RNE, &f) == 0x4340000000000002ull);
  CHECK(st, vt_u64_to_f64(~0ull, VT_RM_RNE, &f) == 0x43f0000000000000ull);
  CHECK(st, vt_u64_to_f64(~0ull, VT_RM_RTZ, &f) == 0x43efffffffffffffull);
  CHECK(st, vt_i64_to_f32(0x1000001, VT_RM_RNE, &f) == 0x4b800000);
  CHECK(st, vt_i64_to_f32(0x1000001, VT_RM_RMM, &f) == 0x4b800001);
  CHECK(st, vt_i64_to_f32(-0x1000001, VT_RM_RDN, &f) == 0xcb800001);
  CHECK_EQ_U32(st, f, NX);
  f = 0;
  CHECK(st, vt_i64_to_f64(INT64_MIN, VT_RM_RNE, &f) == 0xc3e0000000000000ull);
  CHECK(st, vt_i64_to_f32(INT64_MIN, VT_RM_RNE, &f) == 0xdf000000);
  CHECK(st, vt_i64_to_f64(0, VT_RM_RDN, &f) == 0);
  CHECK(st, vt_u64_to_f32(0, VT_RM_RDN, &f) == 0);
  CHECK_EQ_U32(st, f, 0);
}

TEST(int32_to_f64_exact) {
  /* exact: the host's (double) conversion is the independent reference */
  long n = count(1000000), bad = 0;
  for (long i = 0; i < n + 6; i++) {
    static const uint32_t sp[] = {0, 1, 0xffffffff, 0x7fffffff, 0x80000000, 0x80000001};
    uint32_t x = i < 6 ? sp[i] : rnd32() >> rndn(32);
    if (vt_i32_to_f64((int32_t)x) != dbits((double)(int32_t)x) || vt_u32_to_f64(x) != dbits((double)x)) {
      if (bad++ < 10) fprintf(stderr, "int32 -> f64 wrong for %08x\n", x);
      st->failed_checks++;
    }
  }
  CHECK(st, vt_i32_to_f64(-1) == 0xbff0000000000000ull);
  CHECK(st, vt_u32_to_f64(0xffffffffu) == 0x41efffffffe00000ull);
  printf("  i32/u32 -> f64: %ld values, %ld mismatches\n", n + 6, bad);
}

/* ---------- between float formats ---------- */

static void check_f32_to_f64(check_state *st, uint32_t a, long *bad) {
  uint32_t f = 0, ef = 0;
  uint64_t e;
  if ((a & 0x7fffffff) > 0x7f800000) {
    e = CNAN64;
    ef = (a & 0x00400000) ? 0 : NV;
  } else {
    e = dbits((double)bflt(a));
  }
  uint64_t g = vt_f32_to_f64(a, &f);
  if (g != e || f != ef) {
    if ((*bad)++ < 10) fprintf(stderr, "f32->f64 %08x: got %016llx/%02x\n", a, (unsigned long long)g, f);
    st->failed_checks++;
  }
}

TEST(f32_to_f64_exact) {
  /* every 4093rd binary32 pattern, all subnormal-range edges and random
   * values: the host's (double) conversion is exact; NaNs -> canonical,
   * NV for signalling ones */
  long bad = 0, cases = 0;
  uint64_t step = test_scale() >= 1.0 ? 4093 : 40093;
  for (uint64_t u = 0; u < 0x100000000ull; u += step, cases++) check_f32_to_f64(st, (uint32_t)u, &bad);
  for (long i = 0; i < count(200000); i++, cases++) check_f32_to_f64(st, rnd_cvt_f32(), &bad);
  uint32_t f = 0;
  CHECK(st, vt_f32_to_f64(0x7f800001, &f) == CNAN64);
  CHECK_EQ_U32(st, f, NV);
  f = 0;
  CHECK(st, vt_f32_to_f64(0xffc00001, &f) == CNAN64);
  CHECK(st, vt_f32_to_f64(0x00000001, &f) == 0x36a0000000000000ull); /* 2^-149 */
  CHECK(st, vt_f32_to_f64(0x807fffff, &f) == 0xb80fffffc0000000ull);
  CHECK(st, vt_f32_to_f64(0x7f7fffff, &f) == 0x47efffffe0000000ull);
  CHECK(st, vt_f32_to_f64(0xff800000, &f) == 0xfff0000000000000ull);
  CHECK_EQ_U32(st, f, 0);
  printf("  f32 -> f64: %ld values, %ld mismatches\n", cases, bad);
}

TEST(f16_to_f64_exhaustive) {
  /* every binary16 input; expected value: MPFR's exact binary64 image */
  long bad = 0;
  for (uint32_t a = 0; a < 0x10000; a++) {
    uint32_t ef, gf = 0;
    uint64_t e = oracle_cvt(O_F16, O_F64, a, VT_RM_RNE, &ef);
    uint64_t g = vt_f16_to_f64(a | (rnd32() << 16), &gf); /* upper bits ignored */
    if (g != e || gf != ef) {
      if (bad++ < 10) fprintf(stderr, "f16->f64 %04x: got %016llx/%02x\n", a, (unsigned long long)g, gf);
      st->failed_checks++;
    }
  }
  uint32_t f = 0;
  CHECK(st, vt_f16_to_f64(0x0001, &f) == 0x3e70000000000000ull); /* 2^-24 */
  CHECK(st, vt_f16_to_f64(0x7bff, &f) == 0x40effc0000000000ull); /* 65504 */
  CHECK(st, vt_f16_to_f64(0x7e00, &f) == CNAN64);
  CHECK_EQ_U32(st, f, 0);
  CHECK(st, vt_f16_to_f64(0x7c01, &f) == CNAN64);
  CHECK_EQ_U32(st, f, NV);
  printf("  f16 -> f64: 65536 values, %ld mismatches\n", bad);
}

/* binary64 inputs around the range of a narrower format (p bits, emax),
 * with ties and near-ties at its rounding position */
static uint64_t rnd_narrow_input(int p, int emax) {
  uint32_t r = rndn(10);
  if (r == 0) return rnd_f64();
  if (r == 1) return specials[rndn(NSPECIALS)];
  int lo = 1023 - emax - p - 4, span = 2 * emax + p + 10;
  int e = r < 4 ? lo + (int)rndn(12) : r < 6 ? 1023 + emax - 4 + (int)rndn(8) : lo + (int)rndn((uint32_t)span);
  int sh = 53 - p; /* fraction bits below the kept ones (for normal results) */
  if (e < 1023 - emax) sh += 1023 - emax - e; /* subnormal results keep fewer */
  if (sh > 52) sh = 52;
  uint64_t frac = rnd_frac();
  if (rndn(2)) { /* a tie or near-tie at the rounding position */
    uint64_t half = (uint64_t)1 << (sh - 1);
    frac = (frac & ~(((uint64_t)1 << sh) - 1)) | ((half + (uint64_t)(int64_t)((int)rndn(3) - 1)) & ((half << 1) - 1));
  }
  return make_f64(rndn(2), e, frac);
}

static void run_narrow(check_state *st, const char *name, ofmt dst, long base) {
  long n = count(base);
  for (int rm = 0; rm < 5; rm++) {
    stats s = {0, 0};
    for (long i = 0; i < n; i++) {
      uint64_t a = rnd_narrow_input(dst.p, dst.emax);
      uint32_t ef, gf = 0;
      uint64_t e = oracle_cvt(O_F64, dst, a, rm, &ef);
      uint64_t g = dst.p == 24 ? vt_f64_to_f32(a, rm, &gf) : vt_f64_to_f16(a, rm, &gf);
      char in[64];
      snprintf(in, sizeof in, "%016llx %s", (unsigned long long)a, rm_name[rm]);
      report(st, &s, name, in, g, gf, e, ef);
    }
    printf("  %s %s: %ld cases, %ld mismatches\n", name, rm_name[rm], s.cases, s.fails);
  }
}

TEST(f64_to_f32_f16_vs_mpfr) {
  run_narrow(st, "f64->f32", O_F32, 400000);
  run_narrow(st, "f64->f16", O_F16, 250000);
  /* hand-computed */
  uint32_t f = 0;
  CHECK_EQ_U32(st, vt_f64_to_f32(0x3ff0000010000000, VT_RM_RNE, &f), 0x3f800000); /* 1 + 2^-24 */
  CHECK_EQ_U32(st, vt_f64_to_f32(0x3ff0000010000000, VT_RM_RMM, &f), 0x3f800001);
  CHECK_EQ_U32(st, vt_f64_to_f32(0x3ff0000030000000, VT_RM_RNE, &f), 0x3f800002);
  CHECK_EQ_U32(st, f, NX);
  f = 0;
  CHECK_EQ_U32(st, vt_f64_to_f32(MAX64, VT_RM_RNE, &f), 0x7f800000);
  CHECK_EQ_U32(st, vt_f64_to_f32(MAX64, VT_RM_RTZ, &f), 0x7f7fffff);
  CHECK_EQ_U32(st, vt_f64_to_f32(MAX64 | SIGN64, VT_RM_RUP, &f), 0xff7fffff);
  CHECK_EQ_U32(st, f, OF | NX);
  f = 0;
  CHECK_EQ_U32(st, vt_f64_to_f32(0x3690000000000000, VT_RM_RNE, &f), 0); /* 2^-150: tie to 0 */
  CHECK_EQ_U32(st, vt_f64_to_f32(0x3690000000000000, VT_RM_RUP, &f), 1);
  CHECK_EQ_U32(st, f, UF | NX);
  f = 0;
  CHECK_EQ_U32(st, vt_f64_to_f32(0x380fffffc0000000, VT_RM_RNE, &f), 0x007fffff); /* exact subnormal */
  CHECK_EQ_U32(st, vt_f64_to_f32(0x47efffffe0000000, VT_RM_RNE, &f), 0x7f7fffff);
  CHECK_EQ_U32(st, vt_f64_to_f32(SIGN64, VT_RM_RNE, &f), 0x80000000);
  CHECK_EQ_U32(st, vt_f64_to_f32(INF64 | SIGN64, VT_RM_RTZ, &f), 0xff800000);
  CHECK_EQ_U32(st, vt_f64_to_f32(0x7ff8000000000123, VT_RM_RNE, &f), 0x7fc00000);
  CHECK_EQ_U32(st, f, 0);
  CHECK_EQ_U32(st, vt_f64_to_f32(0x7ff0000000000001, VT_RM_RNE, &f), 0x7fc00000);
  CHECK_EQ_U32(st, f, NV);
  f = 0;
  /* 65520 = 65504 + half an ulp: RNE overflows (65504 is odd), RTZ does not */
  CHECK_EQ_U32(st, vt_f64_to_f16(0x40effe0000000000, VT_RM_RNE, &f), 0x7c00);
  CHECK_EQ_U32(st, f, OF | NX);
  f = 0;
  CHECK_EQ_U32(st, vt_f64_to_f16(0x40effe0000000000, VT_RM_RTZ, &f), 0x7bff);
  CHECK_EQ_U32(st, f, NX);
  f = 0;
  CHECK_EQ_U32(st, vt_f64_to_f16(0xbff0000000000000, VT_RM_RNE, &f), 0xbc00);
  CHECK_EQ_U32(st, vt_f64_to_f16(0x3e70000000000000, VT_RM_RNE, &f), 0x0001); /* 2^-24 */
  CHECK_EQ_U32(st, f, 0);
  CHECK_EQ_U32(st, vt_f64_to_f16(0x3e60000000000000, VT_RM_RNE, &f), 0x0000); /* 2^-25 */
  CHECK_EQ_U32(st, f, UF | NX);
  f = 0;
  CHECK_EQ_U32(st, vt_f64_to_f16(0xfff4000000000000, VT_RM_RNE, &f), 0x7e00);
  CHECK_EQ_U32(st, f, NV);
}

/* ---------- min/max/compare/classify: RISC-V rules, host comparisons ---------- */

TEST(minmax_compare_rules) {
  /* a, b, min, max, NV from min/max */
  static const uint64_t mm[][5] = {
      {0x0000000000000000, 0x8000000000000000, 0x8000000000000000, 0x0000000000000000, 0},
      {0x8000000000000000, 0x0000000000000000, 0x8000000000000000, 0x0000000000000000, 0},
      {CNAN64, 0x3ff0000000000000, 0x3ff0000000000000, 0x3ff0000000000000, 0},
      {0x3ff0000000000000, 0xfff8000000000001, 0x3ff0000000000000, 0x3ff0000000000000, 0},
      {0x7ff0000000000001, 0x3ff0000000000000, 0x3ff0000000000000, 0x3ff0000000000000, NV},
      {0xbff0000000000000, 0xfff4000000000000, 0xbff0000000000000, 0xbff0000000000000, NV},
      {CNAN64, 0x7ff8000000012345, CNAN64, CNAN64, 0},
      {0x7ff0000000000001, CNAN64, CNAN64, CNAN64, NV},
      {0xfff0000000000000, INF64, 0xfff0000000000000, INF64, 0},
      {0xbff0000000000000, 0xc000000000000000, 0xc000000000000000, 0xbff0000000000000, 0},
      {0x0000000000000001, 0x0000000000000000, 0x0000000000000000, 0x0000000000000001, 0},
      {0x8000000000000001, 0x8000000000000000, 0x8000000000000001, 0x8000000000000000, 0},
      {MAX64, INF64, MAX64, INF64, 0},
  };
  for (size_t i = 0; i < sizeof mm / sizeof mm[0]; i++) {
    uint32_t f1 = 0, f2 = 0;
    CHECK(st, vt_f64_min(mm[i][0], mm[i][1], &f1) == mm[i][2]);
    CHECK(st, vt_f64_max(mm[i][0], mm[i][1], &f2) == mm[i][3]);
    CHECK_EQ_U32(st, f1, mm[i][4]);
    CHECK_EQ_U32(st, f2, mm[i][4]);
  }
  /* a, b, eq, lt, le, NV of eq, NV of lt/le */
  static const uint64_t cmp[][7] = {
      {0x0000000000000000, 0x8000000000000000, 1, 0, 1, 0, 0},
      {0x3ff0000000000000, 0x4000000000000000, 0, 1, 1, 0, 0},
      {0x4000000000000000, 0x3ff0000000000000, 0, 0, 0, 0, 0},
      {0xc000000000000000, 0xbff0000000000000, 0, 1, 1, 0, 0},
      {0x8000000000000001, 0x0000000000000000, 0, 1, 1, 0, 0},
      {INF64, INF64, 1, 0, 1, 0, 0},
      {CNAN64, CNAN64, 0, 0, 0, 0, NV},
      {0x3ff0000000000000, 0xfff8000000000000, 0, 0, 0, 0, NV},
      {0x7ff0000000000001, 0x3ff0000000000000, 0, 0, 0, NV, NV},
      {0x3ff0000000000000, 0x7ff7ffffffffffff, 0, 0, 0, NV, NV},
  };
  for (size_t i = 0; i < sizeof cmp / sizeof cmp[0]; i++) {
    uint32_t fe = 0, fl = 0, fle = 0;
    CHECK_EQ_U32(st, vt_f64_eq(cmp[i][0], cmp[i][1], &fe), cmp[i][2]);
    CHECK_EQ_U32(st, vt_f64_lt(cmp[i][0], cmp[i][1], &fl), cmp[i][3]);
    CHECK_EQ_U32(st, vt_f64_le(cmp[i][0], cmp[i][1], &fle), cmp[i][4]);
    CHECK_EQ_U32(st, fe, cmp[i][5]);
    CHECK_EQ_U32(st, fl, cmp[i][6]);
    CHECK_EQ_U32(st, fle, cmp[i][6]);
  }
  /* random pairs against the rules written out with host IEEE comparisons */
  long n = count(1500000), bad = 0;
  for (long i = 0; i < n; i++) {
    uint64_t a = rnd_f64(), b = rndn(4) ? rnd_f64() : (rndn(2) ? a ^ SIGN64 : nudge(a));
    double fa = bdbl(a), fb = bdbl(b);
    int na = is_nan64(a), nb = is_nan64(b), sn = is_snan64(a) || is_snan64(b);
    uint64_t emin, emax;
    if (na && nb) {
      emin = emax = CNAN64;
    } else if (na || nb) {
      emin = emax = na ? b : a;
    } else if (fa < fb) {
      emin = a, emax = b;
    } else if (fb < fa) {
      emin = b, emax = a;
    } else { /* equal: only +-0 differ in bits */
      emin = (a >> 63) ? a : b;
      emax = (a >> 63) ? b : a;
    }
    uint32_t enf = sn ? NV : 0, fltf = (na || nb) ? NV : 0;
    int eeq = !na && !nb && fa == fb, elt = !na && !nb && fa < fb, ele = !na && !nb && fa <= fb;
    uint32_t f1 = 0, f2 = 0, f3 = 0, f4 = 0, f5 = 0;
    uint64_t gmin = vt_f64_min(a, b, &f1), gmax = vt_f64_max(a, b, &f2);
    int geq = vt_f64_eq(a, b, &f3), glt = vt_f64_lt(a, b, &f4), gle = vt_f64_le(a, b, &f5);
    if (gmin != emin || gmax != emax || f1 != enf || f2 != enf || geq != eeq || glt != elt ||
        gle != ele || f3 != enf || f4 != fltf || f5 != fltf) {
      if (bad++ < 10)
        fprintf(stderr, "minmax/compare mismatch for %016llx %016llx\n", (unsigned long long)a,
                (unsigned long long)b);
      st->failed_checks++;
    }
  }
  printf("  min/max/eq/lt/le: %ld random pairs, %ld mismatches\n", n, bad);
}

static uint32_t ref_classify(uint64_t a) {
  double d = bdbl(a);
  int neg = signbit(d) != 0;
  switch (fpclassify(d)) {
  case FP_INFINITE: return neg ? 1u << 0 : 1u << 7;
  case FP_NORMAL: return neg ? 1u << 1 : 1u << 6;
  case FP_SUBNORMAL: return neg ? 1u << 2 : 1u << 5;
  case FP_ZERO: return neg ? 1u << 3 : 1u << 4;
  default: return (a & 0x0008000000000000ull) ? 1u << 9 : 1u << 8;
  }
}

TEST(classify_sgnj_rules) {
  static const uint64_t cl[][2] = {
      {0xfff0000000000000, 0x001}, {0xbff0000000000000, 0x002}, {0x8010000000000000, 0x002},
      {0x800fffffffffffff, 0x004}, {0x8000000000000001, 0x004}, {0x8000000000000000, 0x008},
      {0x0000000000000000, 0x010}, {0x0000000000000001, 0x020}, {0x000fffffffffffff, 0x020},
      {0x0010000000000000, 0x040}, {MAX64, 0x040},              {INF64, 0x080},
      {0x7ff0000000000001, 0x100}, {0xfff7ffffffffffff, 0x100}, {CNAN64, 0x200},
      {0xffffffffffffffff, 0x200},
  };
  for (size_t i = 0; i < sizeof cl / sizeof cl[0]; i++) CHECK_EQ_U32(st, vt_f64_classify(cl[i][0]), cl[i][1]);
  long n = count(1000000), bad = 0;
  for (long i = 0; i < n; i++) {
    uint64_t a = rnd_f64();
    if (vt_f64_classify(a) != ref_classify(a) && bad++ < 10)
      fprintf(stderr, "classify %016llx\n", (unsigned long long)a);
  }
  if (bad) st->failed_checks++;
  printf("  classify: %ld random values, %ld mismatches\n", n, bad);
  /* sign injection is pure bit manipulation (NaN payloads kept) */
  CHECK(st, vt_f64_sgnj(0x3ff0000000000000, SIGN64) == 0xbff0000000000000);
  CHECK(st, vt_f64_sgnj(0xfff8000000000001, 0) == 0x7ff8000000000001);
  CHECK(st, vt_f64_sgnjn(0x3ff0000000000000, SIGN64) == 0x3ff0000000000000);
  CHECK(st, vt_f64_sgnjn(0x7ff0000000000001, 0x7ff0000000000001) == 0xfff0000000000001);
  CHECK(st, vt_f64_sgnjx(0xbff0000000000000, SIGN64) == 0x3ff0000000000000);
  CHECK(st, vt_f64_sgnjx(0xbff0000000000000, 0) == 0xbff0000000000000);
}

/* ---------- vfrec7 / vfrsqrt7 at SEW = 64 ---------- */

/* The RVV 1.0 tables from their definition (as test_fp32_mpfr.c): entry i
 * is the 7-bit fraction nearest to the function's value at the midpoint of
 * input interval i. */
static uint8_t gen_rec7[128], gen_rsqrt7[128];
static void gen_tables(void) {
  for (int i = 0; i < 128; i++) {
    double mid = 1.0 + (i + 0.5) / 128.0;
    long v = lround((2.0 / mid - 1.0) * 128.0);
    gen_rec7[i] = (uint8_t)(v > 127 ? 127 : v);
    double x = (1.0 + ((i & 63) + 0.5) / 64.0) * ((i >> 6) ? 1.0 : 2.0);
    double y = 1.0 / sqrt(x);
    while (y < 1.0) y *= 2.0;
    v = lround((y - 1.0) * 128.0);
    gen_rsqrt7[i] = (uint8_t)(v > 127 ? 127 : v);
  }
}

/* The spec's algorithm evaluated on the real value (frexp on the host
 * double) for SEW = 64: bias B = 1023, output exponents 2B-1-e and
 * floor((3B-1-e)/2), subnormal outputs, the overflow case by direction. */
static uint64_t ref_est7(uint64_t a, int rsqrt, int rm, uint32_t *fl) {
  *fl = 0;
  int neg = (a >> 63) != 0;
  if (is_nan64(a)) {
    if (is_snan64(a)) *fl = NV;
    return CNAN64;
  }
  if ((a & ~SIGN64) == 0) {
    *fl = DZ;
    return (a & SIGN64) | INF64;
  }
  if (rsqrt && neg) {
    *fl = NV;
    return CNAN64;
  }
  if ((a & ~SIGN64) == INF64) return a & SIGN64;
  int e2;
  double m = frexp(fabs(bdbl(a)), &e2);       /* |a| = m 2^e2, m in [0.5, 1) */
  int ne = e2 - 1 + 1023;                      /* normalised biased exponent */
  int frac7 = (int)floor((2.0 * m - 1.0) * 128.0);
  int oe, t;
  if (!rsqrt) {
    oe = 2 * 1023 - 1 - ne;
    if (oe > 2046) { /* |a| < 2^-1024 */
      *fl = NX | OF;
      int to_max = rm == VT_RM_RTZ || (rm == VT_RM_RDN && !neg) || (rm == VT_RM_RUP && neg);
      return (neg ? SIGN64 : 0) | (to_max ? MAX64 : INF64);
    }
    t = gen_rec7[frac7];
  } else {
    oe = (int)floor((3.0 * 1023 - 1 - ne) / 2.0);
    t = gen_rsqrt7[((ne & 1) << 6) | (frac7 >> 1)];
  }
  double r = ldexp(128.0 + t, oe - 1023 - 7); /* exact, subnormal when oe <= 0 */
  return dbits(neg ? -r : r);
}

TEST(rec7_rsqrt7_spec) {
  gen_tables();
  /* hand-computed: 1.0 -> (1 + 127/128) 2^-1 for both; 4.0 -> 0.498 (rsqrt);
   * 2^-1023 / 2^-1024 -> large normals; 2^-1025 overflows; the largest
   * finite gives the subnormal 2^-1024; 2^-1074 -> (1 + 127/128) 2^536 */
  static const uint64_t sp[][4] = {
      /* input, rm, rec7 result, flags */
      {0x3ff0000000000000, 0, 0x3fefe00000000000, 0}, {0x0008000000000000, 0, 0x7fdfe00000000000, 0},
      {0x0004000000000000, 0, 0x7fefe00000000000, 0}, {0x0002000000000000, 0, INF64, NX | OF},
      {0x0002000000000000, 1, MAX64, NX | OF},        {0x0002000000000000, 2, MAX64, NX | OF},
      {0x0002000000000000, 3, INF64, NX | OF},        {0x0002000000000000, 4, INF64, NX | OF},
      {0x8002000000000000, 2, INF64 | SIGN64, NX | OF}, {0x8002000000000000, 3, MAX64 | SIGN64, NX | OF},
      {MAX64, 0, 0x0004000000000000, 0},              {0xffefffffffffffff, 0, 0x8004000000000000, 0},
      {0x7fe0000000000000, 0, 0x0007f80000000000, 0},  {INF64, 0, 0, 0},
      {INF64 | SIGN64, 0, SIGN64, 0},                 {SIGN64, 0, INF64 | SIGN64, DZ},
      {0x7ff0000000000001, 0, CNAN64, NV},            {CNAN64, 0, CNAN64, 0},
  };
  for (size_t i = 0; i < sizeof sp / sizeof sp[0]; i++) {
    uint32_t fl = 0;
    CHECK(st, vt_f64_rec7(sp[i][0], (int)sp[i][1], &fl) == sp[i][2]);
    CHECK_EQ_U32(st, fl, sp[i][3]);
  }
  static const uint64_t sq[][3] = {
      {0x3ff0000000000000, 0x3fefe00000000000, 0}, {0x4010000000000000, 0x3fdfe00000000000, 0},
      {0x0000000000000001, 0x617fe00000000000, 0}, {INF64, 0, 0},
      {SIGN64, INF64 | SIGN64, DZ},                {0, INF64, DZ},
      {0xbff0000000000000, CNAN64, NV},            {0x8000000000000001, CNAN64, NV},
      {CNAN64, CNAN64, 0},                         {0xfff0000000000001, CNAN64, NV},
  };
  for (size_t i = 0; i < sizeof sq / sizeof sq[0]; i++) {
    uint32_t fl = 0;
    CHECK(st, vt_f64_rsqrt7(sq[i][0], &fl) == sq[i][1]);
    CHECK_EQ_U32(st, fl, sq[i][2]);
  }
  /* every table entry, then subnormals and random inputs, in every mode */
  long n = count(200000), bad = 0, cases = 0;
  for (int rm = 0; rm < 5; rm++) {
    for (long i = 0; i < n + 512; i++) {
      uint64_t a;
      if (i < 128)
        a = 0x3ff0000000000000ull | (uint64_t)i << 45 | (rnd64() >> 19);
      else if (i < 256)
        a = (1023ull + ((i >> 6) & 1)) << 52 | (uint64_t)(i & 63) << 46 | (rnd64() >> 18);
      else if (i < 512)
        a = rnd64() & (0x800fffffffffffffull >> rndn(53) | SIGN64); /* subnormals */
      else
        a = rnd_f64();
      for (int k = 0; k < 2; k++) {
        uint32_t ef, gf = 0;
        uint64_t e = ref_est7(a, k, rm, &ef);
        uint64_t g = k ? vt_f64_rsqrt7(a, &gf) : vt_f64_rec7(a, rm, &gf);
        cases++;
        if (g != e || gf != ef) {
          st->failed_checks++;
          if (bad++ < 10)
            fprintf(stderr, "%s(%016llx) %s: got %016llx/%02x expected %016llx/%02x\n", k ? "rsqrt7" : "rec7",
                    (unsigned long long)a, rm_name[rm], (unsigned long long)g, gf, (unsigned long long)e, ef);
        }
      }
    }
  }
  printf("  rec7/rsqrt7: %ld cases, %ld mismatches\n", cases, bad);
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
  static uint64_t a[N], b[N], c[N];
  for (int i = 0; i < N; i++) {
    a[i] = make_f64(rndn(2), 1000 + (int)rndn(50), rnd64());
    b[i] = make_f64(rndn(2), 1000 + (int)rndn(50), rnd64());
    c[i] = make_f64(rndn(2), 1000 + (int)rndn(50), rnd64());
  }
  long reps = count(200);
  const char *names[] = {"add", "mul", "div", "sqrt", "fma", "f64_to_i64", "i64_to_f64", "f64_to_f32"};
  for (int k = 0; k < 8; k++) {
    uint32_t fl = 0;
    uint64_t acc = 0;
    double t0 = now_ns();
    for (long r = 0; r < reps; r++) {
      int rm = (int)(r % 5);
      for (int i = 0; i < N; i++) {
        switch (k) {
        case 0: acc += vt_f64_add(a[i], b[i], rm, &fl); break;
        case 1: acc += vt_f64_mul(a[i], b[i], rm, &fl); break;
        case 2: acc += vt_f64_div(a[i], b[i], rm, &fl); break;
        case 3: acc += vt_f64_sqrt(a[i] & ~SIGN64, rm, &fl); break;
        case 4: acc += vt_f64_fma(a[i], b[i], c[i], rm, &fl); break;
        case 5: acc += vt_f64_to_i64(a[i], rm, &fl); break;
        case 6: acc += vt_i64_to_f64((int64_t)a[i], rm, &fl); break;
        default: acc += vt_f64_to_f32(a[i], rm, &fl); break;
        }
      }
    }
    double ns = (now_ns() - t0) / ((double)reps * N);
    printf("  speed %-10s %.1f ns/op (checksum %016llx)\n", names[k], ns, (unsigned long long)(acc ^ fl));
  }
}

TEST(init) {
  (void)st;
  const char *seed = getenv("VT_FP_TEST_SEED");
  if (seed && *seed) rng_state = strtoull(seed, NULL, 0);
  oracle_setup();
  printf("MPFR %s, scale %g, seed %016llx\n", mpfr_get_version(), test_scale(), (unsigned long long)rng_state);
}

RUN_TESTS(T(init), T(known_answers), T(rmm_oracle_sanity), T(add_vs_mpfr), T(sub_vs_mpfr),
          T(mul_vs_mpfr), T(div_vs_mpfr), T(sqrt_vs_mpfr), T(fma_vs_mpfr), T(fmsub_fnmsub_fnmadd_vs_mpfr),
          T(float_to_int_vs_mpfr), T(float_to_int_known), T(int_to_float_vs_mpfr), T(int32_to_f64_exact),
          T(f32_to_f64_exact), T(f16_to_f64_exhaustive), T(f64_to_f32_f16_vs_mpfr), T(minmax_compare_rules),
          T(classify_sgnj_rules), T(rec7_rsqrt7_spec), T(speed))
