/* MMA arithmetic (src/tensor/mma_arith.c) against the independent exact
 * reference of mma_ref.h (big-integer rationals, textbook rounding) and
 * hand-computed values (isa2025.md 4.2, 4.7, 4.8, C25):
 *  - element value tables: every FP8/FP6/FP4 encoding, all 65536 f16 and
 *    bf16 encodings (high container bits ignored, C22);
 *  - every pair of FP8 (and FP6/FP4) values as a product in all five
 *    rounding modes, plus a second random product and a C;
 *  - all pairs of a set of special binary16 values, both C/D types;
 *  - random tiles for every legal (type, shape, C/D) combination, every
 *    rounding mode, RELU, saturation/wrap, with value profiles that make
 *    cancellation, subnormal products, overflow and specials likely;
 *  - directed cases with values computed by hand (ties per mode, C25
 *    overflow of the f16 product, exact sums that naive summation loses,
 *    zero signs, NaN/Inf, E4M3 NaN, E5M2 Inf, saturation, RELU);
 *  - order independence, D aliasing C, API errors.
 * The reference rounder is checked against the host's float conversion.
 * VT_MMA_TEST_SCALE multiplies the random counts. */
#include <fenv.h>
#include <stdint.h>

#include "check.h"
#include "mma_forms.h"
#include "mma_ref.h"
#include "tensor/mma_arith.h"

static uint64_t rng_state = 0x6a09e667f3bcc908ull;
static uint64_t rnd64(void) { /* splitmix64 */
  uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
static uint32_t rnd32(void) { return (uint32_t)(rnd64() >> 32); }
static uint32_t rndn(uint32_t n) { return (uint32_t)(((rnd64() >> 32) * n) >> 32); }
static int rnd_range(int lo, int hi) { return lo + (int)rndn((uint32_t)(hi - lo + 1)); }

static int test_scale(void) {
  const char *s = getenv("VT_MMA_TEST_SCALE");
  int v = s ? atoi(s) : 1;
  return v > 0 ? v : 1;
}

static uint32_t f32_bits(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}

/* --- value generators (from the 4.2 parameters of mma_ref.h) ------------- */

static int container_bits(vt_mma_type t) {
  ref_fmt f;
  if (ref_float_fmt(t, &f)) return t == VT_MMA_F32 ? 32 : (t == VT_MMA_F16 || t == VT_MMA_BF16) ? 16 : 8;
  return t == VT_MMA_S8 || t == VT_MMA_U8 ? 8 : t == VT_MMA_S4 || t == VT_MMA_U4 ? 4 : 1;
}
static uint32_t container_mask(vt_mma_type t) {
  int b = container_bits(t);
  return b == 32 ? 0xffffffffu : (1u << b) - 1;
}

/* An encoding of float type t with biased exponent E and random fraction. */
static uint32_t float_with_exp(vt_mma_type t, int E, int neg) {
  ref_fmt f;
  ref_float_fmt(t, &f);
  int emax_field = (1 << f.ebits) - 1;
  int top = f.specials == REF_IEEE ? emax_field - 1 : emax_field;
  E = E < 0 ? 0 : E > top ? top : E;
  uint32_t F = f.fbits ? rnd32() & ((1u << f.fbits) - 1) : 0;
  if (f.specials == REF_E4M3 && E == emax_field && F == (1u << f.fbits) - 1) F--;
  return (uint32_t)neg << (f.ebits + f.fbits) | (uint32_t)E << f.fbits | F;
}

static uint32_t float_special(vt_mma_type t) {
  ref_fmt f;
  ref_float_fmt(t, &f);
  const int w = 1 + f.ebits + f.fbits;
  const uint32_t sign = rndn(2) << (w - 1), emask = (1u << f.ebits) - 1, fmask = (1u << f.fbits) - 1;
  uint32_t top = f.specials == REF_IEEE ? emask - 1 : emask;
  uint32_t max = top << f.fbits | (f.specials == REF_E4M3 ? fmask - 1 : fmask);
  switch (rndn(8)) {
  case 0: return sign;                               /* +-0 */
  case 1: return sign | (f.fbits ? 1 : 1u << f.fbits); /* smallest non-zero */
  case 2: return sign | fmask;                       /* largest subnormal (or 0) */
  case 3: return sign | 1u << f.fbits;               /* smallest normal */
  case 4: return sign | max;
  case 5: /* infinity where the type has one */
    return f.specials == REF_IEEE ? sign | emask << f.fbits : sign | max;
  case 6: /* NaN */
    if (f.specials == REF_IEEE) return sign | emask << f.fbits | (1 + rnd32() % fmask);
    return f.specials == REF_E4M3 ? sign | emask << f.fbits | fmask : sign;
  default: return sign | (uint32_t)f.bias << f.fbits; /* +-1 */
  }
}

static uint32_t sign_bit(vt_mma_type t) {
  ref_fmt f;
  ref_float_fmt(t, &f);
  return 1u << (f.ebits + f.fbits);
}

/* Tile value profiles. */
enum { P_CLUSTER, P_BITS, P_TINY, P_HUGE, P_SPECIAL, P_COUNT };

static uint32_t gen_float(vt_mma_type t, int profile, int center) {
  ref_fmt f;
  ref_float_fmt(t, &f);
  int neg = (int)rndn(2);
  switch (profile) {
  case P_BITS: return rnd32() & container_mask(t);
  case P_TINY: return rndn(8) ? float_with_exp(t, rnd_range(0, 2), neg) : (uint32_t)neg << (f.ebits + f.fbits);
  case P_HUGE: return float_with_exp(t, (1 << f.ebits) - 1 - rnd_range(0, 3), neg);
  case P_SPECIAL:
    if (rndn(6) == 0) return float_special(t);
    /* fall through */
  default: return float_with_exp(t, center + rnd_range(-2, 2), neg);
  }
}

static uint32_t gen_c_float(int cd_f16, vt_mma_type t, int profile, int center) {
  vt_mma_type ct = cd_f16 ? VT_MMA_F16 : VT_MMA_F32;
  ref_fmt fa, fc;
  ref_float_fmt(t, &fa);
  ref_float_fmt(ct, &fc);
  switch (rndn(8)) {
  case 0: return rndn(2) ? (cd_f16 ? 0x8000u : 0x80000000u) : 0;
  case 1: return rnd32() & container_mask(ct);
  case 2: return profile == P_SPECIAL ? float_special(ct) : float_with_exp(ct, fc.bias, (int)rndn(2));
  default: /* near the size of the products */
    return float_with_exp(ct, fc.bias + 2 * (center - fa.bias) + rnd_range(-3, 4), (int)rndn(2));
  }
}

static uint32_t gen_int(vt_mma_type t) {
  uint32_t m = container_mask(t);
  switch (rndn(4)) {
  case 0: return m;                       /* -1 or the largest unsigned */
  case 1: return (m >> 1) + 1;            /* the most negative / 2^(s-1) */
  case 2: return m >> 1;                  /* the largest signed */
  default: return rnd32() & m;
  }
}

static uint32_t gen_c_int(void) {
  switch (rndn(5)) {
  case 0: return 0x7fffffffu - rndn(1u << 20);
  case 1: return 0x80000000u + rndn(1u << 20);
  case 2: return rndn(1u << 16) - (1u << 15);
  default: return rnd32();
  }
}

/* --- the reference's rounder against the host ------------------------------ */

TEST(reference_rounder_matches_host_float) {
  /* doubles rounded to binary32 by ref_round and by the host conversion
   * (x86-64 SSE honours the rounding mode set with fesetround) */
  static const int modes[4][2] = {{REF_RNE, FE_TONEAREST}, {REF_RTZ, FE_TOWARDZERO},
                                  {REF_RDN, FE_DOWNWARD}, {REF_RUP, FE_UPWARD}};
  long bad = 0;
  for (int mi = 0; mi < 4; mi++) {
    if (fesetround(modes[mi][1]) != 0) continue;
    for (int i = 0; i < 20000; i++) {
      uint64_t u = rnd64();
      int e = rnd_range(-158, 130); /* subnormal, normal and overflowing binary32 */
      u = (u & 0x800fffffffffffffull) | (uint64_t)(e + 1023) << 52;
      if (e < -108) u &= ~((1ull << (-108 - e)) - 1); /* ref_exact needs multiples of 2^-160 */
      if (i % 5 == 0) u &= ~0x000000000fffffffull;    /* ties and exact cases */
      double tmp;
      memcpy(&tmp, &u, 8);
      volatile double d = tmp;
      volatile float hf = (float)d;
      ref_val v = {REF_FINITE, (int)(u >> 63), fabs(d)};
      rnum x = ref_exact(&v);
      uint32_t got = ref_round(x.neg, &x.mag, REF_SCALE, REF_OUT_F32, modes[mi][0]);
      if (got != f32_bits(hf) && bad++ < 5)
        fprintf(stderr, "ref_round(%a) mode %d = %08x, host %08x\n", d, mi, got, f32_bits(hf));
    }
  }
  fesetround(FE_TONEAREST);
  CHECK(st, bad == 0);
  /* binary16 by hand: 65504 max, 65520 overflows in RNE, 2^-24 quantum */
  ref_val v = {REF_FINITE, 0, 65520.0};
  rnum x = ref_exact(&v);
  CHECK_EQ_U32(st, ref_round(0, &x.mag, REF_SCALE, REF_OUT_F16, REF_RNE), 0x7c00);
  CHECK_EQ_U32(st, ref_round(0, &x.mag, REF_SCALE, REF_OUT_F16, REF_RTZ), 0x7bff);
  v.v = ldexp(3, -26); /* 0.75 * 2^-24: nearest is 2^-24 */
  x = ref_exact(&v);
  CHECK_EQ_U32(st, ref_round(1, &x.mag, REF_SCALE, REF_OUT_F16, REF_RNE), 0x8001);
  CHECK_EQ_U32(st, ref_round(1, &x.mag, REF_SCALE, REF_OUT_F16, REF_RTZ), 0x8000);
}

/* --- element formats -------------------------------------------------------- */

/* D = x * one + (-0) in f32: exactly x's value (every FP8/6/4 value fits). */
static uint32_t value_via_dot(vt_mma_type t, uint32_t x, uint32_t one) {
  return vt_mma_dot(t, VT_MMA_CD_F32, 1, &x, 1, &one, 1, 0x80000000u, 0, 0, 0);
}

static void check_table(check_state *st, vt_mma_type t, uint32_t one, int nbits, const double *mag,
                        int n) {
  for (int i = 0; i < n; i++) {
    uint32_t hi = rnd32() << nbits & 0xff; /* ignored container bits (C22) */
    CHECK_EQ_U32(st, value_via_dot(t, (uint32_t)i | hi, one), f32_bits((float)mag[i]));
    CHECK_EQ_U32(st, value_via_dot(t, (uint32_t)i | 1u << (nbits - 1) | hi, one),
                 f32_bits((float)-mag[i]));
  }
}

TEST(fp6_fp4_value_tables) {
  static const double e2m1[8] = {0, 0.5, 1, 1.5, 2, 3, 4, 6};
  static const double e3m0[8] = {0, 0.25, 0.5, 1, 2, 4, 8, 16};
  static const double e2m3[32] = {0,   0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875,
                                  1,   1.125, 1.25, 1.375, 1.5, 1.625, 1.75, 1.875,
                                  2,   2.25,  2.5,  2.75,  3,   3.25,  3.5,  3.75,
                                  4,   4.5,   5,    5.5,   6,   6.5,   7,    7.5};
  static const double e3m2[32] = {0,    0.0625, 0.125, 0.1875, 0.25, 0.3125, 0.375, 0.4375,
                                  0.5,  0.625,  0.75,  0.875,  1,    1.25,   1.5,   1.75,
                                  2,    2.5,    3,     3.5,    4,    5,      6,     7,
                                  8,    10,     12,    14,     16,   20,     24,    28};
  check_table(st, VT_MMA_E2M1, 0x2, 4, e2m1, 8);
  check_table(st, VT_MMA_E3M0, 0x3, 4, e3m0, 8);
  check_table(st, VT_MMA_E2M3, 0x08, 6, e2m3, 32);
  check_table(st, VT_MMA_E3M2, 0x0c, 6, e3m2, 32);
}

TEST(fp8_value_tables) {
  /* the rows of the 4.2 table */
  CHECK_EQ_U32(st, value_via_dot(VT_MMA_E4M3, 0x7e, 0x38), f32_bits(448.0f));
  CHECK_EQ_U32(st, value_via_dot(VT_MMA_E4M3, 0x08, 0x38), f32_bits(0x1p-6f));
  CHECK_EQ_U32(st, value_via_dot(VT_MMA_E4M3, 0x01, 0x38), f32_bits(0x1p-9f));
  CHECK_EQ_U32(st, value_via_dot(VT_MMA_E4M3, 0x78, 0x38), f32_bits(256.0f)); /* E 15 F 0: normal */
  CHECK_EQ_U32(st, value_via_dot(VT_MMA_E4M3, 0x7f, 0x38), 0x7fc00000);       /* the NaNs */
  CHECK_EQ_U32(st, value_via_dot(VT_MMA_E4M3, 0xff, 0x38), 0x7fc00000);
  CHECK_EQ_U32(st, value_via_dot(VT_MMA_E5M2, 0x7b, 0x3c), f32_bits(57344.0f));
  CHECK_EQ_U32(st, value_via_dot(VT_MMA_E5M2, 0x04, 0x3c), f32_bits(0x1p-14f));
  CHECK_EQ_U32(st, value_via_dot(VT_MMA_E5M2, 0x01, 0x3c), f32_bits(0x1p-16f));
  CHECK_EQ_U32(st, value_via_dot(VT_MMA_E5M2, 0x7c, 0x3c), 0x7f800000);
  CHECK_EQ_U32(st, value_via_dot(VT_MMA_E5M2, 0xfc, 0x3c), 0xff800000);
  CHECK_EQ_U32(st, value_via_dot(VT_MMA_E5M2, 0x7d, 0x3c), 0x7fc00000);
  /* every encoding against the 4.2 formula */
  static const vt_mma_type fp8[2] = {VT_MMA_E4M3, VT_MMA_E5M2};
  static const uint32_t one[2] = {0x38, 0x3c};
  for (int i = 0; i < 2; i++)
    for (uint32_t x = 0; x < 256; x++) {
      ref_val v = ref_decode(fp8[i], x);
      uint32_t want = v.cls == REF_NAN ? 0x7fc00000u
                      : v.cls == REF_INF ? (v.neg ? 0xff800000u : 0x7f800000u)
                                         : f32_bits(v.neg ? -(float)v.v : (float)v.v);
      CHECK_EQ_U32(st, value_via_dot(fp8[i], x, one[i]), want);
    }
}

TEST(f16_bf16_all_encodings) {
  long bad = 0;
  for (uint32_t x = 0; x < 0x10000; x++) {
    uint32_t hi = rnd32() << 16;
    /* f16 widened exactly to f32 (C25: P is f16, then converted exactly) */
    ref_val v = ref_decode(VT_MMA_F16, x);
    uint32_t want = v.cls == REF_NAN ? 0x7fc00000u
                    : v.cls == REF_INF ? (v.neg ? 0xff800000u : 0x7f800000u)
                                       : f32_bits(v.neg ? -(float)v.v : (float)v.v);
    uint32_t one16 = 0x3c00, one_bf = 0x3f80, xx = x | hi;
    bad += vt_mma_dot(VT_MMA_F16, VT_MMA_CD_F32, 1, &xx, 1, &one16, 1, 0x80000000u, 0, 0, 0) != want;
    /* f16 C/D: P + (-0) is P itself, NaN canonical */
    uint32_t want16 = v.cls == REF_NAN ? 0x7e00u : x;
    bad += vt_mma_dot(VT_MMA_F16, VT_MMA_CD_F16, 1, &xx, 1, &one16, 1, 0x8000u, 0, 0, 0) != want16;
    /* bf16 is the upper half of a binary32 */
    uint32_t wbf = ((x & 0x7fffu) > 0x7f80u) ? 0x7fc00000u : x << 16;
    bad += vt_mma_dot(VT_MMA_BF16, VT_MMA_CD_F32, 1, &xx, 1, &one_bf, 1, 0x80000000u, 0, 0, 0) != wbf;
  }
  CHECK(st, bad == 0);
}

/* --- exhaustive products ---------------------------------------------------- */

static long sweep_pairs(vt_mma_type t, int n, vt_mma_cd cd, const uint32_t *vals, int nv) {
  long bad = 0;
  const int cd16 = cd == VT_MMA_CD_F16;
  for (int i = 0; i < nv; i++)
    for (int j = 0; j < nv; j++) {
      uint32_t a[2] = {vals[i], 0}, b[2] = {vals[j], 0};
      if (rndn(2)) { /* a second product of similar size, or a signed zero */
        a[1] = vals[rndn((uint32_t)nv)];
        b[1] = vals[rndn((uint32_t)nv)];
      } else {
        a[1] = rndn(2) ? vals[rndn((uint32_t)nv)] : 0;
        b[1] = rndn(2) ? sign_bit(t) : 0; /* +-0 */
      }
      uint32_t c = rndn(4) == 0 ? rnd32() & (cd16 ? 0xffffu : 0xffffffffu)
                                : (rndn(2) ? (cd16 ? 0x8000u : 0x80000000u) : 0);
      for (int rm = 0; rm < 5; rm++) {
        int relu = (int)rndn(2);
        uint32_t got = vt_mma_dot(t, cd, n, a, 1, b, 1, c, rm, 0, relu);
        uint32_t want = ref_elem_float(t, cd16, n, a, b, 1, c, rm, relu);
        if (got != want && bad++ < 5)
          fprintf(stderr, "%s: a %x %x b %x %x c %x rm %d relu %d: got %08x want %08x\n",
                  vt_mma_type_name(t), a[0], a[1], b[0], b[1], c, rm, relu, got, want);
      }
    }
  return bad;
}

TEST(fp8_fp6_fp4_all_pairs) {
  static const vt_mma_type types[] = {VT_MMA_E4M3, VT_MMA_E5M2, VT_MMA_E3M2,
                                      VT_MMA_E2M3, VT_MMA_E2M1, VT_MMA_E3M0};
  static const int nvals[] = {256, 256, 64, 64, 16, 16};
  uint32_t vals[256];
  for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
    for (int v = 0; v < nvals[i]; v++) vals[v] = (uint32_t)v;
    CHECK(st, sweep_pairs(types[i], 2, VT_MMA_CD_F32, vals, nvals[i]) == 0);
  }
}

TEST(f16_special_pairs) {
  static const uint32_t mags[] = {
      0x0000, 0x0001, 0x0002, 0x0003, 0x01ff, 0x03ff, 0x0400, 0x0401, 0x07ff, 0x0800, 0x1000,
      0x1400, 0x1c00, 0x2000, 0x2001, 0x2400, 0x3555, 0x3bff, 0x3c00, 0x3c01, 0x3e00, 0x4000,
      0x4001, 0x4200, 0x57ff, 0x5800, 0x5bff, 0x5c00, 0x5c01, 0x7000, 0x7bfe, 0x7bff, 0x7c00,
      0x7c01, 0x7e00, 0x7fff};
  uint32_t vals[2 * sizeof mags / sizeof mags[0]];
  int n = 0;
  for (size_t i = 0; i < sizeof mags / sizeof mags[0]; i++) {
    vals[n++] = mags[i];
    vals[n++] = mags[i] | 0x8000u;
  }
  CHECK(st, sweep_pairs(VT_MMA_F16, 2, VT_MMA_CD_F16, vals, n) == 0);
  CHECK(st, sweep_pairs(VT_MMA_F16, 2, VT_MMA_CD_F32, vals, n) == 0);
}

/* --- random tiles for every legal combination -------------------------------- */

static long run_tile(const tform *F, int cd16, int profile, int rm, int sat, int relu) {
  enum { MAXE = 16 * 128 };
  uint32_t A[MAXE], B[MAXE], C[256], D[256];
  const int is_int = tform_is_int(F);
  ref_fmt rf;
  int center = 0;
  if (!is_int) {
    ref_float_fmt(F->type, &rf);
    center = rf.bias + rnd_range(-(rf.bias < 4 ? rf.bias : 4), rf.bias < 4 ? 1 : 4);
  }
  for (int i = 0; i < F->m * F->k; i++) A[i] = is_int ? gen_int(F->type) : gen_float(F->type, profile, center);
  for (int i = 0; i < F->k * F->n; i++) B[i] = is_int ? gen_int(F->type) : gen_float(F->type, profile, center);
  for (int i = 0; i < F->m * F->n; i++)
    C[i] = is_int ? gen_c_int() : gen_c_float(cd16, F->type, profile, center);
  vt_mma_form f = {F->type, F->shape, cd16 ? 0 : 1, 0, 0};
  char msg[128] = "";
  if (vt_mma_compute(&f, A, B, C, D, rm, sat, relu, msg, sizeof msg) != 0) {
    fprintf(stderr, "%s %s: compute failed: %s\n", F->tname, F->sname, msg);
    return 1;
  }
  long bad = 0;
  for (int m = 0; m < F->m; m++)
    for (int n = 0; n < F->n; n++) {
      uint32_t want = ref_elem(F->type, cd16, F->k, F->n, A, B, m, n, C[m * F->n + n], rm, sat, relu);
      if (D[m * F->n + n] != want && bad++ < 3)
        fprintf(stderr, "%s %s cd%s profile %d rm %d sat %d relu %d D[%d][%d] = %08x, want %08x\n",
                F->tname, F->sname, cd16 ? "f16" : "32", profile, rm, sat, relu, m, n,
                D[m * F->n + n], want);
    }
  return bad;
}

TEST(random_tiles_every_combination) {
  const int reps = 6 * test_scale();
  int tiles = 0;
  for (size_t i = 0; i < N_TFORMS; i++) {
    const tform *F = &TFORMS[i];
    for (int cd16 = 0; cd16 <= F->f16_cd; cd16++)
      for (int r = 0; r < reps; r++)
        for (int profile = 0; profile < P_COUNT; profile++) {
          int rm = (int)rndn(5), relu = (int)rndn(2), sat = tform_is_int(F) ? (int)rndn(2) : 0;
          long bad = run_tile(F, cd16, profile, rm, sat, relu);
          CHECK(st, bad == 0);
          tiles++;
          if (tform_is_int(F)) break; /* profiles are for float types */
        }
  }
  printf("  %d random tiles\n", tiles);
}

/* --- directed cases, expected values by hand ---------------------------------- */

static uint32_t dot(vt_mma_type t, vt_mma_cd cd, int k, const uint32_t *a, const uint32_t *b,
                    uint32_t c, int rm) {
  return vt_mma_dot(t, cd, k, a, 1, b, 1, c, rm, 0, 0);
}

TEST(rounding_ties_every_mode) {
  /* f16: 1 + 2^-11 lies halfway between 1 and 1 + 2^-10 */
  uint32_t a[2] = {0x3c00, 0x1000}, b[2] = {0x3c00, 0x3c00};
  static const uint32_t pos[5] = {0x3c00, 0x3c00, 0x3c00, 0x3c01, 0x3c01}; /* RNE RTZ RDN RUP RMM */
  static const uint32_t neg[5] = {0xbc00, 0xbc00, 0xbc01, 0xbc00, 0xbc01};
  for (int rm = 0; rm < 5; rm++) CHECK_EQ_U32(st, dot(VT_MMA_F16, VT_MMA_CD_F16, 2, a, b, 0x8000, rm), pos[rm]);
  b[0] = b[1] = 0xbc00;
  for (int rm = 0; rm < 5; rm++) CHECK_EQ_U32(st, dot(VT_MMA_F16, VT_MMA_CD_F16, 2, a, b, 0x8000, rm), neg[rm]);
  /* 1 + 3*2^-11: tie between odd 1+2^-10 and even 1+2^-9 */
  uint32_t a2[3] = {0x3c00, 0x1000, 0x1400}, b2[3] = {0x3c00, 0x3c00, 0x3c00};
  static const uint32_t odd[5] = {0x3c02, 0x3c01, 0x3c01, 0x3c02, 0x3c02};
  for (int rm = 0; rm < 5; rm++) CHECK_EQ_U32(st, dot(VT_MMA_F16, VT_MMA_CD_F16, 3, a2, b2, 0x8000, rm), odd[rm]);
  /* binary32 product type (bf16 A/B): 1 + 2^-24 */
  uint32_t c[2] = {0x3f80, 0x3380}, d[2] = {0x3f80, 0x3f80};
  static const uint32_t p32[5] = {0x3f800000, 0x3f800000, 0x3f800000, 0x3f800001, 0x3f800001};
  for (int rm = 0; rm < 5; rm++) CHECK_EQ_U32(st, dot(VT_MMA_BF16, VT_MMA_CD_F32, 2, c, d, 0x80000000u, rm), p32[rm]);
}

TEST(product_rounded_before_c) {
  /* C25: 256 * 256 = 65536 overflows binary16 before C = -65536 is added */
  uint32_t a = 0x5c00, b = 0x5c00, c = f32_bits(-65536.0f);
  CHECK_EQ_U32(st, dot(VT_MMA_F16, VT_MMA_CD_F32, 1, &a, &b, c, 0), 0x7f800000);
  CHECK_EQ_U32(st, dot(VT_MMA_F16, VT_MMA_CD_F32, 1, &a, &b, c, 4), 0x7f800000);
  CHECK_EQ_U32(st, dot(VT_MMA_F16, VT_MMA_CD_F32, 1, &a, &b, c, 1), f32_bits(65504.0f - 65536.0f));
  CHECK_EQ_U32(st, dot(VT_MMA_F16, VT_MMA_CD_F32, 1, &a, &b, c, 2), f32_bits(-32.0f));
  CHECK_EQ_U32(st, dot(VT_MMA_F16, VT_MMA_CD_F32, 1, &a, &b, c, 3), 0x7f800000);
  uint32_t na = 0xdc00; /* negative: -Inf under RNE/RDN, -65504 under RUP/RTZ */
  CHECK_EQ_U32(st, dot(VT_MMA_F16, VT_MMA_CD_F32, 1, &na, &b, 0, 2), 0xff800000);
  CHECK_EQ_U32(st, dot(VT_MMA_F16, VT_MMA_CD_F32, 1, &na, &b, 0, 3), f32_bits(-65504.0f));
  /* the dot product is rounded once, then C added once: 1 + 2^-11 (f16 tie
   * to 1) plus C = 2^-11 gives 1 + 2^-11 in f32, not 1 + 2^-10 */
  uint32_t a2[2] = {0x3c00, 0x1000}, b2[2] = {0x3c00, 0x3c00};
  CHECK_EQ_U32(st, dot(VT_MMA_F16, VT_MMA_CD_F32, 2, a2, b2, f32_bits(0x1p-11f), 0), f32_bits(1.0f + 0x1p-11f));
}

TEST(exact_sum_regardless_of_order) {
  /* f32: 2^100*2^100 + 1*1 - 2^100*2^100 = 1 exactly (naive summation: 0) */
  uint32_t a[3] = {f32_bits(0x1p100f), 0x3f800000, f32_bits(-0x1p100f)};
  uint32_t b[3] = {f32_bits(0x1p100f), 0x3f800000, f32_bits(0x1p100f)};
  CHECK_EQ_U32(st, dot(VT_MMA_F32, VT_MMA_CD_F32, 3, a, b, 0, 0), 0x3f800000);
  /* both ends of the range at once: L^2 + 2^-149 * 2^-149 - L^2 (L the largest
   * binary32) is 2^-298: RUP gives the smallest subnormal, RNE +0 */
  uint32_t big = 0x7f7fffff, tiny = 0x00000001;
  uint32_t a1[3] = {big, tiny, big | 0x80000000u}, b1[3] = {big, tiny, big};
  CHECK_EQ_U32(st, dot(VT_MMA_F32, VT_MMA_CD_F32, 3, a1, b1, 0, 3), 0x00000001);
  CHECK_EQ_U32(st, dot(VT_MMA_F32, VT_MMA_CD_F32, 3, a1, b1, 0, 0), 0x00000000);
  /* 16 * L^2 (the largest sum) overflows: RUP +Inf, RDN the largest value */
  uint32_t a2[16], b2[16];
  for (int i = 0; i < 16; i++) a2[i] = b2[i] = big;
  CHECK_EQ_U32(st, dot(VT_MMA_F32, VT_MMA_CD_F32, 16, a2, b2, 0, 3), 0x7f800000);
  CHECK_EQ_U32(st, dot(VT_MMA_F32, VT_MMA_CD_F32, 16, a2, b2, 0, 2), 0x7f7fffff);
  b2[15] = big | 0x80000000u; /* 14 * L^2 still overflows; -L^2 ... */
  for (int i = 1; i < 16; i += 2) b2[i] = big | 0x80000000u; /* ... alternating: exactly 0 */
  CHECK_EQ_U32(st, dot(VT_MMA_F32, VT_MMA_CD_F32, 16, a2, b2, 0x80000000u, 2), 0x80000000);
  CHECK_EQ_U32(st, dot(VT_MMA_F32, VT_MMA_CD_F32, 16, a2, b2, 0x80000000u, 0), 0x00000000);
  /* 2^-298 alone: RUP gives the smallest subnormal, RNE zero (positive) */
  uint32_t a3[2] = {tiny, f32_bits(1.0f)}, b3[2] = {tiny, 0};
  CHECK_EQ_U32(st, dot(VT_MMA_F32, VT_MMA_CD_F32, 2, a3, b3, 0, 3), 0x00000001);
  CHECK_EQ_U32(st, dot(VT_MMA_F32, VT_MMA_CD_F32, 2, a3, b3, 0, 0), 0x00000000);
  CHECK_EQ_U32(st, dot(VT_MMA_F32, VT_MMA_CD_F32, 2, a3, b3, 0x80000000u, 2), 0x80000000);
  /* a term far below the rest still breaks a tie: 1 + 2^-24 + 2^-298 rounds up
   * in RNE (1 + 2^-24 alone is a tie and rounds to 1) */
  uint32_t a4[3] = {0x3f800000u, f32_bits(0x1p-24f), tiny}, b4[3] = {0x3f800000u, 0x3f800000u, tiny};
  CHECK_EQ_U32(st, dot(VT_MMA_F32, VT_MMA_CD_F32, 3, a4, b4, 0, 0), 0x3f800001);
  CHECK_EQ_U32(st, dot(VT_MMA_F32, VT_MMA_CD_F32, 2, a4, b4, 0, 0), 0x3f800000);
  CHECK_EQ_U32(st, dot(VT_MMA_F32, VT_MMA_CD_F32, 3, a4, b4, 0, 1), 0x3f800000);
  /* subnormal results kept: 2^-100 * 2^-40 = 2^-140; f16 2^-12 * 2^-12 = 2^-24 */
  uint32_t x = f32_bits(0x1p-100f), y = f32_bits(0x1p-40f), h = 0x0c00;
  CHECK_EQ_U32(st, dot(VT_MMA_F32, VT_MMA_CD_F32, 1, &x, &y, 0, 0), 0x00000200);
  CHECK_EQ_U32(st, dot(VT_MMA_F16, VT_MMA_CD_F16, 1, &h, &h, 0, 0), 0x0001);
  /* 2^-75 * 2^-75 = 2^-150: half the smallest subnormal */
  uint32_t q = f32_bits(0x1p-75f);
  CHECK_EQ_U32(st, dot(VT_MMA_F32, VT_MMA_CD_F32, 1, &q, &q, 0, 0), 0x00000000);
  CHECK_EQ_U32(st, dot(VT_MMA_F32, VT_MMA_CD_F32, 1, &q, &q, 0, 4), 0x00000001);
}

TEST(zero_signs) {
  uint32_t pz = 0, nz = 0x80000000u, one = 0x3f800000u, mone = 0xbf800000u;
  uint32_t a[2] = {nz, nz}, b[2] = {one, one}; /* every product -0 */
  CHECK_EQ_U32(st, dot(VT_MMA_F32, VT_MMA_CD_F32, 2, a, b, nz, 0), 0x80000000);
  CHECK_EQ_U32(st, dot(VT_MMA_F32, VT_MMA_CD_F32, 2, a, b, pz, 0), 0x00000000);
  CHECK_EQ_U32(st, dot(VT_MMA_F32, VT_MMA_CD_F32, 2, a, b, pz, 2), 0x80000000);
  uint32_t a2[2] = {pz, nz}; /* +0 and -0 products: P = +0 (RDN: -0) */
  CHECK_EQ_U32(st, dot(VT_MMA_F32, VT_MMA_CD_F32, 2, a2, b, nz, 0), 0x00000000);
  CHECK_EQ_U32(st, dot(VT_MMA_F32, VT_MMA_CD_F32, 2, a2, b, nz, 2), 0x80000000);
  CHECK_EQ_U32(st, dot(VT_MMA_F32, VT_MMA_CD_F32, 2, a2, b, pz, 2), 0x80000000); /* -0 + +0 in RDN */
  CHECK_EQ_U32(st, dot(VT_MMA_F32, VT_MMA_CD_F32, 2, a2, b, pz, 3), 0x00000000);
  uint32_t a3[2] = {pz, pz}; /* every product +0: P = +0 even in RDN */
  CHECK_EQ_U32(st, dot(VT_MMA_F32, VT_MMA_CD_F32, 2, a3, b, pz, 2), 0x00000000);
  uint32_t a4[2] = {one, mone}; /* exact cancellation 1 - 1 */
  CHECK_EQ_U32(st, dot(VT_MMA_F32, VT_MMA_CD_F32, 2, a4, b, nz, 0), 0x00000000);
  CHECK_EQ_U32(st, dot(VT_MMA_F32, VT_MMA_CD_F32, 2, a4, b, nz, 2), 0x80000000);
  /* P + C cancelling: 1 + (-1) = +0, -0 under RDN */
  uint32_t o = one;
  CHECK_EQ_U32(st, dot(VT_MMA_F32, VT_MMA_CD_F32, 1, &o, &o, mone, 3), 0x00000000);
  CHECK_EQ_U32(st, dot(VT_MMA_F32, VT_MMA_CD_F32, 1, &o, &o, mone, 2), 0x80000000);
}

TEST(nan_and_infinity) {
  const uint32_t inf8 = 0x7c, ninf8 = 0xfc, one8 = 0x3c, zero8 = 0x00, nan8 = 0x7e;
  uint32_t a[2] = {inf8, one8}, b[2] = {one8, one8};
  CHECK_EQ_U32(st, dot(VT_MMA_E5M2, VT_MMA_CD_F32, 2, a, b, 0, 0), 0x7f800000);
  CHECK_EQ_U32(st, dot(VT_MMA_E5M2, VT_MMA_CD_F32, 2, a, b, f32_bits(-1e30f), 0), 0x7f800000);
  CHECK_EQ_U32(st, dot(VT_MMA_E5M2, VT_MMA_CD_F32, 2, a, b, 0xff800000u, 0), 0x7fc00000); /* Inf - Inf */
  a[1] = ninf8; /* +Inf and -Inf products */
  CHECK_EQ_U32(st, dot(VT_MMA_E5M2, VT_MMA_CD_F32, 2, a, b, 0, 0), 0x7fc00000);
  a[1] = one8;
  b[0] = zero8; /* Inf * 0 */
  CHECK_EQ_U32(st, dot(VT_MMA_E5M2, VT_MMA_CD_F32, 2, a, b, 0, 0), 0x7fc00000);
  a[0] = nan8;
  b[0] = one8;
  CHECK_EQ_U32(st, dot(VT_MMA_E5M2, VT_MMA_CD_F32, 2, a, b, 0xff800000u, 0), 0x7fc00000);
  /* a NaN C gives the canonical NaN whatever the product, and RELU keeps it */
  uint32_t h = 0x3c00;
  CHECK_EQ_U32(st, dot(VT_MMA_F16, VT_MMA_CD_F16, 1, &h, &h, 0xfd01, 0), 0x7e00);
  CHECK_EQ_U32(st, vt_mma_dot(VT_MMA_F16, VT_MMA_CD_F16, 1, &h, 1, &h, 1, 0xfd01, 0, 0, 1), 0x7e00);
  CHECK_EQ_U32(st, dot(VT_MMA_F32, VT_MMA_CD_F32, 1, &(uint32_t){0x3f800000u}, &(uint32_t){0x3f800000u}, 0xff800001u, 0), 0x7fc00000);
  /* e4m3 has no infinity: 0x7f/0xff are NaN, 0x7e is 448 */
  uint32_t e[2] = {0x7e, 0x7e};
  CHECK_EQ_U32(st, dot(VT_MMA_E4M3, VT_MMA_CD_F32, 1, e, e + 1, 0, 0), 0x48440000);
  uint32_t en = 0xff;
  CHECK_EQ_U32(st, dot(VT_MMA_E4M3, VT_MMA_CD_F32, 1, &en, e, 0, 0), 0x7fc00000);
  /* f32 products beyond binary32: 2^127 * 4 * 2 terms = 2^130: Inf (RNE), largest (RTZ) */
  uint32_t p[2] = {f32_bits(0x1p127f), f32_bits(0x1p127f)}, q[2] = {f32_bits(4.0f), f32_bits(4.0f)};
  CHECK_EQ_U32(st, dot(VT_MMA_F32, VT_MMA_CD_F32, 2, p, q, 0, 0), 0x7f800000);
  CHECK_EQ_U32(st, dot(VT_MMA_F32, VT_MMA_CD_F32, 2, p, q, 0, 1), 0x7f7fffff);
  /* P = 2^129 overflows to Inf; C = -largest cannot bring it back */
  CHECK_EQ_U32(st, dot(VT_MMA_F32, VT_MMA_CD_F32, 1, p, q, 0xff7fffffu, 0), 0x7f800000);
}

TEST(relu_last) {
  uint32_t one = 0x3f800000u, mone = 0xbf800000u, nz = 0x80000000u;
  CHECK_EQ_U32(st, vt_mma_dot(VT_MMA_F32, VT_MMA_CD_F32, 1, &one, 1, &mone, 1, 0, 0, 0, 1), 0);
  CHECK_EQ_U32(st, vt_mma_dot(VT_MMA_F32, VT_MMA_CD_F32, 1, &nz, 1, &one, 1, nz, 0, 0, 1), 0); /* -0 */
  CHECK_EQ_U32(st, vt_mma_dot(VT_MMA_F32, VT_MMA_CD_F32, 1, &one, 1, &one, 1, 0xff800000u, 0, 0, 1), 0);
  CHECK_EQ_U32(st, vt_mma_dot(VT_MMA_F32, VT_MMA_CD_F32, 1, &one, 1, &one, 1, one, 0, 0, 1), 0x40000000);
  uint32_t h = 0x3c00, mh = 0xbc00;
  CHECK_EQ_U32(st, vt_mma_dot(VT_MMA_F16, VT_MMA_CD_F16, 1, &h, 1, &mh, 1, 0, 0, 0, 1), 0);
  uint32_t s = 0xff, t = 0x01; /* s8: -1 * 1 + 0 */
  CHECK_EQ_U32(st, vt_mma_dot(VT_MMA_S8, VT_MMA_CD_S32, 1, &s, 1, &t, 1, 0, 0, 0, 1), 0);
  CHECK_EQ_U32(st, vt_mma_dot(VT_MMA_S8, VT_MMA_CD_S32, 1, &s, 1, &t, 1, 0, 0, 0, 0), 0xffffffff);
  /* saturation happens before RELU: INT32_MIN saturated, then 0 */
  CHECK_EQ_U32(st, vt_mma_dot(VT_MMA_S8, VT_MMA_CD_S32, 1, &s, 1, &t, 1, 0x80000000u, 0, 1, 1), 0);
}

TEST(integer_saturation_and_wrap) {
  uint32_t a[16], b[16];
  for (int i = 0; i < 16; i++) a[i] = b[i] = 0x80; /* s8 -128 */
  CHECK_EQ_U32(st, vt_mma_dot(VT_MMA_S8, VT_MMA_CD_S32, 16, a, 1, b, 1, 0x7fffffff, 0, 1, 0), 0x7fffffff);
  CHECK_EQ_U32(st, vt_mma_dot(VT_MMA_S8, VT_MMA_CD_S32, 16, a, 1, b, 1, 0x7fffffff, 0, 0, 0), 0x8003ffff);
  CHECK_EQ_U32(st, vt_mma_dot(VT_MMA_S8, VT_MMA_CD_S32, 16, a, 1, b, 1, 0, 0, 1, 0), 262144);
  for (int i = 0; i < 16; i++) b[i] = 0x7f; /* -128 * 127 * 16 = -260096 */
  CHECK_EQ_U32(st, vt_mma_dot(VT_MMA_S8, VT_MMA_CD_S32, 16, a, 1, b, 1, 0x80000000u, 0, 1, 0), 0x80000000);
  CHECK_EQ_U32(st, vt_mma_dot(VT_MMA_S8, VT_MMA_CD_S32, 16, a, 1, b, 1, 0x80000000u, 0, 0, 0), 0x7ffc0800);
  /* u8 255 * 255 * 16 = 1040400; u4 15 * 15 * 32 = 7200; s4 -8 * -8 * 32 = 2048; s4 0xf = -1 */
  for (int i = 0; i < 16; i++) a[i] = b[i] = 0xff;
  CHECK_EQ_U32(st, vt_mma_dot(VT_MMA_U8, VT_MMA_CD_S32, 16, a, 1, b, 1, 0, 0, 1, 0), 1040400);
  CHECK_EQ_U32(st, vt_mma_dot(VT_MMA_S8, VT_MMA_CD_S32, 16, a, 1, b, 1, 0, 0, 1, 0), 16);
  uint32_t u[32], w[32];
  for (int i = 0; i < 32; i++) u[i] = w[i] = 0xf;
  CHECK_EQ_U32(st, vt_mma_dot(VT_MMA_U4, VT_MMA_CD_S32, 32, u, 1, w, 1, 0, 0, 1, 0), 7200);
  CHECK_EQ_U32(st, vt_mma_dot(VT_MMA_S4, VT_MMA_CD_S32, 32, u, 1, w, 1, 5, 0, 1, 0), 37);
  for (int i = 0; i < 32; i++) u[i] = w[i] = 0x8;
  CHECK_EQ_U32(st, vt_mma_dot(VT_MMA_S4, VT_MMA_CD_S32, 32, u, 1, w, 1, 0, 0, 1, 0), 2048);
  /* b1: 128 ones AND/XOR alternating 0/1: 64 either way; all equal: 128 / 0 */
  uint32_t x[128], y[128];
  for (int i = 0; i < 128; i++) {
    x[i] = 1;
    y[i] = (uint32_t)i & 1;
  }
  CHECK_EQ_U32(st, vt_mma_dot(VT_MMA_B1AND, VT_MMA_CD_S32, 128, x, 1, y, 1, 0, 0, 1, 0), 64);
  CHECK_EQ_U32(st, vt_mma_dot(VT_MMA_B1XOR, VT_MMA_CD_S32, 128, x, 1, y, 1, 0, 0, 1, 0), 64);
  CHECK_EQ_U32(st, vt_mma_dot(VT_MMA_B1AND, VT_MMA_CD_S32, 128, x, 1, x, 1, 1, 0, 1, 0), 129);
  CHECK_EQ_U32(st, vt_mma_dot(VT_MMA_B1XOR, VT_MMA_CD_S32, 128, x, 1, x, 1, 0xffffffff, 0, 0, 0), 0xffffffff);
}

/* --- tile-level properties and API ---------------------------------------------- */

TEST(order_independent_and_in_place) {
  /* permuting k (columns of A and rows of B alike) changes no bit; D may be C */
  for (size_t i = 0; i < N_TFORMS; i++) {
    const tform *F = &TFORMS[i];
    uint32_t A[16 * 128], B[16 * 128], A2[16 * 128], B2[16 * 128], C[256], D[256];
    int perm[128];
    for (int k = 0; k < F->k; k++) perm[k] = k;
    for (int k = F->k - 1; k > 0; k--) {
      int j = (int)rndn((uint32_t)k + 1), t = perm[k];
      perm[k] = perm[j];
      perm[j] = t;
    }
    for (int x = 0; x < F->m * F->k; x++)
      A[x] = tform_is_int(F) ? gen_int(F->type) : gen_float(F->type, P_CLUSTER, 3);
    for (int x = 0; x < F->k * F->n; x++)
      B[x] = tform_is_int(F) ? gen_int(F->type) : gen_float(F->type, P_CLUSTER, 3);
    for (int x = 0; x < F->m * F->n; x++) C[x] = rnd32() & (F->f16_cd ? 0xffffu : 0xffffffffu);
    for (int m = 0; m < F->m; m++)
      for (int k = 0; k < F->k; k++) A2[m * F->k + k] = A[m * F->k + perm[k]];
    for (int k = 0; k < F->k; k++)
      for (int n = 0; n < F->n; n++) B2[k * F->n + n] = B[perm[k] * F->n + n];
    vt_mma_form f = {F->type, F->shape, F->f16_cd ? 0 : 1, 0, 0};
    CHECK(st, vt_mma_compute(&f, A, B, C, D, 0, 1, 0, NULL, 0) == 0);
    CHECK(st, vt_mma_compute(&f, A2, B2, C, C, 0, 1, 0, NULL, 0) == 0); /* in place */
    CHECK(st, memcmp(D, C, sizeof(uint32_t) * (size_t)(F->m * F->n)) == 0);
  }
}

TEST(compute_rejects_bad_arguments) {
  uint32_t A[128] = {0}, B[128] = {0}, C[128] = {0}, D[128];
  char msg[128];
  vt_mma_form bad_ct = {VT_MMA_BF16, 0, 0, 0, 0}; /* bf16 cannot accumulate in f16 */
  CHECK(st, vt_mma_compute(&bad_ct, A, B, C, D, 0, 0, 0, msg, sizeof msg) == -1);
  CHECK(st, strstr(msg, "f16") != NULL);
  vt_mma_form bad_shape = {VT_MMA_F32, 2, 1, 0, 0};
  CHECK(st, vt_mma_compute(&bad_shape, A, B, C, D, 0, 0, 0, msg, sizeof msg) == -1);
  vt_mma_form bad_type = {(vt_mma_type)15, 0, 1, 0, 0};
  CHECK(st, vt_mma_compute(&bad_type, A, B, C, D, 0, 0, 0, msg, sizeof msg) == -1);
  vt_mma_form ok = {VT_MMA_F16, 0, 1, 0, 0};
  CHECK(st, vt_mma_compute(&ok, A, B, C, D, 5, 0, 0, msg, sizeof msg) == -1);
  CHECK(st, strstr(msg, "rounding") != NULL);
  CHECK(st, vt_mma_compute(&ok, A, B, C, D, 4, 0, 0, NULL, 0) == 0);
  vt_mma_form ints = {VT_MMA_S8, 0, 1, 0, 0}; /* rm is not read for integers */
  CHECK(st, vt_mma_compute(&ints, A, B, C, D, 9, 0, 0, NULL, 0) == 0);
  /* vt_mma_dot returns 0 for a pair outside 3.6.2 */
  uint32_t one = 0x3f80;
  CHECK_EQ_U32(st, vt_mma_dot(VT_MMA_BF16, VT_MMA_CD_F16, 1, &one, 1, &one, 1, 0, 0, 0, 0), 0);
  CHECK_EQ_U32(st, vt_mma_dot(VT_MMA_S8, VT_MMA_CD_F32, 1, &one, 1, &one, 1, 0, 0, 0, 0), 0);
  CHECK_EQ_U32(st, vt_mma_dot(VT_MMA_F32, VT_MMA_CD_S32, 1, &one, 1, &one, 1, 0, 0, 0, 0), 0);
}

RUN_TESTS(T(reference_rounder_matches_host_float), T(fp6_fp4_value_tables), T(fp8_value_tables),
          T(f16_bf16_all_encodings), T(fp8_fp6_fp4_all_pairs), T(f16_special_pairs),
          T(random_tiles_every_combination), T(rounding_ties_every_mode),
          T(product_rounded_before_c), T(exact_sum_regardless_of_order), T(zero_signs),
          T(nan_and_infinity), T(relu_last), T(integer_saturation_and_wrap),
          T(order_independent_and_in_place), T(compute_rejects_bad_arguments))
