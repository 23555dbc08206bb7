/* The isa2025.md 3.2.4 conversions: bfloat16 <-> binary32 (src/fp/bf16.c)
 * and the spec's worked examples of binary32 -> binary16 (src/fp/fp16.c,
 * whose conversions test_fp16_mpfr.c tests exhaustively).
 *  - bf16 -> f32 over all 65536 inputs (with random upper bits, which are
 *    ignored), the expected value computed from the format definition
 *    (isa2025.md 4.2) with host ldexpf, NaNs per 3.2.4;
 *  - f32 -> bf16 in every rounding mode on directed inputs (ties, overflow,
 *    the subnormal and tininess boundaries, NaN payloads) and random ones,
 *    against the MPFR oracle of fp_oracle.h (precision 8, binary32 range).
 * Counts scale with VT_FP_TEST_SCALE; VT_FP_TEST_SEED changes the seed. */
#include <stdint.h>

#include <math.h>

#include "check.h"
#include "fp/bf16.h"
#include "fp/fp16.h"
#include "fp_oracle.h"

static uint64_t rng_state = 0x3c6ef372fe94f82bull;
static uint64_t rnd64(void) { /* splitmix64 */
  uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
static uint32_t rnd32(void) { return (uint32_t)(rnd64() >> 32); }
static uint32_t rndn(uint32_t n) { return (uint32_t)(((rnd64() >> 32) * n) >> 32); }

static uint32_t fbits(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}

/* bfloat16 b per isa2025.md 4.2 (S/E/F = 1/8/7, bias 127) as binary32
 * bits, NaN per 3.2.4; *nv set for a signalling NaN. */
static uint32_t ref_bf16_to_f32(uint32_t b, int *nv) {
  int s = (b >> 15) & 1, e = (b >> 7) & 0xff, f = b & 0x7f;
  *nv = 0;
  if (e == 255) {
    if (f == 0) return s ? 0xff800000u : 0x7f800000u;
    *nv = !(f & 0x40);
    return 0x7fc00000u;
  }
  float v = e ? ldexpf(1.0f + (float)f / 128.0f, e - 127) : ldexpf((float)f / 128.0f, -126);
  return fbits(s ? -v : v); /* exact: 8 significant bits */
}

TEST(bf16_to_f32_exhaustive) {
  long bad = 0;
  for (uint32_t b = 0; b < 0x10000; b++) {
    int nv;
    uint32_t e = ref_bf16_to_f32(b, &nv), f = 0;
    uint32_t g = vt_bf16_to_f32(b | (rnd32() << 16), &f);
    if (g != e || f != (nv ? NV : 0u)) {
      if (bad++ < 10) fprintf(stderr, "bf16->f32 %04x: got %08x/%02x expected %08x/%02x\n", b, g, f, e, nv ? NV : 0);
      st->failed_checks++;
    }
  }
  printf("  bf16 -> f32: 65536 inputs, %ld mismatches\n", bad);
  uint32_t f = 0;
  CHECK_EQ_U32(st, vt_bf16_to_f32(0x3f80, &f), 0x3f800000);
  CHECK_EQ_U32(st, vt_bf16_to_f32(0x0001, &f), 0x00010000); /* 2^-133 */
  CHECK_EQ_U32(st, vt_bf16_to_f32(0xff80, &f), 0xff800000);
  CHECK_EQ_U32(st, vt_bf16_to_f32(0xffc1, &f), 0x7fc00000); /* quiet NaN, payload dropped */
  CHECK_EQ_U32(st, f, 0);
  CHECK_EQ_U32(st, vt_bf16_to_f32(0x7f81, &f), 0x7fc00000);
  CHECK_EQ_U32(st, f, NV);
}

/* binary32 inputs for f32 -> bf16: ties and near-ties at bit 16, the
 * overflow and subnormal/tininess boundaries, NaNs with payloads */
static uint32_t rnd_bf16_input(void) {
  static const uint32_t sp[] = {0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x00008000, 0x00018000,
                                0x00007fff, 0x007fffff, 0x007f8000, 0x007f7fff, 0x00800000, 0x807fffff,
                                0x7f7fffff, 0x7f7f8000, 0x7f7f7fff, 0x7f7effff, 0xff7f8000, 0x7f800000,
                                0xff800000, 0x7fc00000, 0x7f800001, 0x7fa00000, 0x7fbfffff, 0xffc00001,
                                0x3f800001, 0x3f808000, 0x3f818000, 0x3f80ffff, 0xc0000000, 0x3f7fffff};
  uint32_t r = rndn(8);
  if (r == 0) return sp[rndn(sizeof sp / sizeof sp[0])];
  if (r == 1) return rnd32();
  uint32_t e = r < 4 ? rndn(4) : r < 5 ? 250 + rndn(5) : rndn(255); /* biased exponent */
  uint32_t hi = rnd32() & 0x7f;                                       /* kept fraction */
  uint32_t low;
  switch (rndn(4)) {
  case 0: low = 0x8000; break; /* tie */
  case 1: low = 0x8000 + (uint32_t)((int)rndn(3) - 1); break;
  case 2: low = rnd32() & 0xffff; break;
  default: low = rndn(2) ? 0xffff : 0; break;
  }
  if (rndn(4) == 0) hi = 0x7f;
  return (rndn(2) ? 0x80000000u : 0) | e << 23 | hi << 16 | low;
}

TEST(f32_to_bf16_vs_mpfr) {
  long n = count(1000000);
  for (int rm = 0; rm < 5; rm++) {
    stats s = {0, 0};
    for (long i = 0; i < n; i++) {
      uint32_t a = rnd_bf16_input(), ef, gf = 0;
      uint64_t e = oracle_cvt(O_F32, O_BF16, a, rm, &ef);
      uint32_t g = vt_f32_to_bf16(a, rm, &gf);
      char in[32];
      snprintf(in, sizeof in, "%08x %s", a, rm_name[rm]);
      report(st, &s, "f32->bf16", in, g, gf, e, ef);
    }
    printf("  f32->bf16 %s: %ld cases, %ld mismatches\n", rm_name[rm], s.cases, s.fails);
  }
}

TEST(f32_to_bf16_known) {
  /* input, rm, result, flags: hand-computed */
  static const uint32_t k[][4] = {
      {0x3f800000, VT_RM_RNE, 0x3f80, 0},
      {0x3f808000, VT_RM_RNE, 0x3f80, NX}, /* tie, kept part even */
      {0x3f818000, VT_RM_RNE, 0x3f82, NX}, /* tie, kept part odd */
      {0x3f808000, VT_RM_RMM, 0x3f81, NX},
      {0x3f808000, VT_RM_RUP, 0x3f81, NX},
      {0xbf808000, VT_RM_RUP, 0xbf80, NX},
      {0xbf808000, VT_RM_RDN, 0xbf81, NX},
      {0x3f800001, VT_RM_RNE, 0x3f80, NX},
      {0x3f800001, VT_RM_RUP, 0x3f81, NX},
      {0xc0000000, VT_RM_RNE, 0xc000, 0},
      /* 0x7f7f8000: largest + half an ulp; the largest (0x7f7f) is odd */
      {0x7f7f8000, VT_RM_RNE, 0x7f80, OF | NX},
      {0x7f7f8000, VT_RM_RTZ, 0x7f7f, NX},
      {0x7f7fffff, VT_RM_RDN, 0x7f7f, NX},
      {0x7f7fffff, VT_RM_RUP, 0x7f80, OF | NX},
      {0xff7fffff, VT_RM_RUP, 0xff7f, NX},
      {0xff7f8000, VT_RM_RMM, 0xff80, OF | NX},
      /* subnormals are kept: 2^-133 is the smallest; tininess after rounding */
      {0x00010000, VT_RM_RNE, 0x0001, 0},
      {0x00008000, VT_RM_RNE, 0x0000, UF | NX}, /* 2^-134: tie to 0 */
      {0x00008000, VT_RM_RMM, 0x0001, UF | NX},
      {0x00018000, VT_RM_RNE, 0x0002, UF | NX},
      {0x80000001, VT_RM_RDN, 0x8001, UF | NX},
      {0x80000001, VT_RM_RNE, 0x8000, UF | NX},
      {0x007fffff, VT_RM_RNE, 0x0080, NX}, /* rounds to 2^-126 also unbounded: not tiny */
      {0x007fffff, VT_RM_RTZ, 0x007f, UF | NX},
      {0x007f8000, VT_RM_RNE, 0x0080, UF | NX}, /* 2^-126 (1 - 2^-8): 8 bits, tiny */
      {0x00800000, VT_RM_RNE, 0x0080, 0},
      /* NaNs: canonical 0x7fc0; a signalling NaN whose payload sits in
       * the low bits raises NV (truncation would give infinity) */
      {0x7f800001, VT_RM_RNE, 0x7fc0, NV},
      {0xffa00000, VT_RM_RTZ, 0x7fc0, NV},
      {0x7fc00001, VT_RM_RNE, 0x7fc0, 0},
      {0xffffffff, VT_RM_RNE, 0x7fc0, 0},
      {0x7f800000, VT_RM_RTZ, 0x7f80, 0},
      {0x80000000, VT_RM_RNE, 0x8000, 0},
  };
  for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
    uint32_t f = 0, of = 0;
    CHECK_EQ_U32(st, vt_f32_to_bf16(k[i][0], (int)k[i][1], &f), k[i][2]);
    CHECK_EQ_U32(st, f, k[i][3]);
    /* the oracle agrees with the hand-computed answer */
    CHECK_EQ_U32(st, oracle_cvt(O_F32, O_BF16, k[i][0], (int)k[i][1], &of), k[i][2]);
    CHECK_EQ_U32(st, of, k[i][3]);
  }
}

TEST(f16_examples_3_2_4) {
  /* isa2025.md 3.2.4: 0x3f800001 -> 0x3c00 under RNE; -2.0 -> 0xc000
   * (the instruction sign-extends to 0xffffc000) */
  uint32_t f = 0;
  CHECK_EQ_U32(st, vt_f32_to_f16(0x3f800001, VT_RM_RNE, &f), 0x3c00);
  CHECK_EQ_U32(st, f, NX);
  f = 0;
  CHECK_EQ_U32(st, vt_f32_to_f16(0xc0000000, VT_RM_RNE, &f), 0xc000);
  CHECK_EQ_U32(st, f, 0);
  CHECK_EQ_U32(st, vt_f16_to_f32(0x7d00, &f), 0x7fc00000); /* signalling */
  CHECK_EQ_U32(st, f, NV);
}

TEST(init) {
  (void)st;
  const char *seed = getenv("VT_FP_TEST_SEED");
  if (seed && *seed) rng_state = strtoull(seed, NULL, 0);
  oracle_setup();
  printf("MPFR %s, scale %g, seed %016llx\n", mpfr_get_version(), test_scale(), (unsigned long long)rng_state);
}

RUN_TESTS(T(init), T(bf16_to_f32_exhaustive), T(f32_to_bf16_known), T(f32_to_bf16_vs_mpfr),
          T(f16_examples_3_2_4))
