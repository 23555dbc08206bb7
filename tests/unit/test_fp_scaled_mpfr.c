/* vt_fp_scaled_op (src/fp/fp_scaled.c), the single rounding of VOP64's OMOD
 * (isa2025.md 3.8.3, C13), against GNU MPFR: binary16, binary32 and binary64
 * add/sub/mul of random and special operands, scaled by 2^0, 2^1, 2^2 and
 * 2^-1, in all five rounding modes with fflags. Expected values:
 * oracle_scaled (fp_oracle.h: the exact MPFR result times 2^k, rounded
 * once). */
#include "check.h"
#include "fp_oracle.h"
#include "fp/fp_scaled.h"

static const ofmt *const FMTS[3] = {&O_F16, &O_F32, &O_F64};
static const vt_fp_fmt VF[3] = {VT_FMT_F16, VT_FMT_F32, VT_FMT_F64};

static uint64_t rand_bits(uint64_t *s) {
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return *s;
}

/* random values of format f: any bits, exponents near one another, specials */
static uint64_t value(ofmt f, uint64_t *s) {
  uint64_t r = rand_bits(s), mask = f.width == 64 ? ~0ull : (1ull << f.width) - 1;
  uint64_t frac = r & (((uint64_t)1 << (f.p - 1)) - 1), sign = (r >> 62) & 1;
  switch ((r >> 56) % 6) {
  case 0: return r & mask;
  case 1: return (sign << (f.width - 1)) | ((uint64_t)(f.emax + (r >> 40) % 5) << (f.p - 1)) | frac;
  case 2: return (sign << (f.width - 1)) | ((uint64_t)((r >> 40) % 3) << (f.p - 1)) | frac; /* tiny */
  case 3: return (sign << (f.width - 1)) | ((uint64_t)(2 * f.emax - (r >> 40) % 3) << (f.p - 1)) | frac;
  case 4: {
    uint64_t sp[] = {0, of_sign(f), of_inf(f), of_inf(f) | of_sign(f), of_cnan(f), of_inf(f) | 1,
                     1, ((uint64_t)f.emax << (f.p - 1))};
    return sp[(r >> 8) % 8];
  }
  default: return (sign << (f.width - 1)) | ((uint64_t)(f.emax - 1 + (r >> 40) % 3) << (f.p - 1)) | frac;
  }
}

TEST(scaled_vs_mpfr) {
  static const int ks[4] = {0, 1, 2, -1};
  static const char *const opn[3] = {"add", "sub", "mul"};
  uint64_t seed = 0x1234567887654321ull;
  for (int fi = 0; fi < 3; fi++) {
    stats s = {0, 0};
    long n = count(fi == 2 ? 60000 : 40000);
    for (long c = 0; c < n; c++) {
      ofmt f = *FMTS[fi];
      uint64_t a = value(f, &seed), b = value(f, &seed);
      int op = (int)(c % 3), k = ks[(c / 3) % 4], rm = (int)((c / 12) % 5);
      uint32_t fl = 0, efl;
      uint64_t got = vt_fp_scaled_op(VF[fi], op, a, b, k, rm, &fl);
      uint64_t want = oracle_scaled(f, op, a, b, k, rm, &efl);
      char in[96];
      snprintf(in, sizeof in, "%s k=%d %s %llx %llx", opn[op], k, rm_name[rm],
               (unsigned long long)a, (unsigned long long)b);
      report(st, &s, fi == 0 ? "f16" : fi == 1 ? "f32" : "f64", in, got, fl, want, efl);
    }
    printf("format %d: %ld cases\n", fi, s.cases);
  }
}

/* hand-checked cases (C13 and 3.8.4's worked example) */
TEST(known_answers) {
  uint32_t fl = 0;
  /* binary16: 1.0 * 0.5 = 0.5 (0x3800); with omod x2: 1.0 (0x3c00) */
  CHECK_EQ_U32(st, vt_fp_scaled_op(VT_FMT_F16, VT_FP_SCALED_MUL, 0x3c00, 0x3800, 0, 0, &fl), 0x3800);
  CHECK_EQ_U32(st, vt_fp_scaled_op(VT_FMT_F16, VT_FP_SCALED_MUL, 0x3c00, 0x3800, 1, 0, &fl), 0x3c00);
  CHECK_EQ_U32(st, fl, 0);
  /* 65504 * 4 overflows: +inf with OF|NX under RNE */
  CHECK_EQ_U32(st, vt_fp_scaled_op(VT_FMT_F16, VT_FP_SCALED_ADD, 0x7bff, 0, 2, 0, &fl), 0x7c00);
  CHECK_EQ_U32(st, fl, OF | NX);
  /* inf * 0.5 stays inf, no flags */
  fl = 0;
  CHECK_EQ_U32(st, vt_fp_scaled_op(VT_FMT_F32, VT_FP_SCALED_ADD, 0xff800000u, 0x3f800000u, -1, 0, &fl), 0xff800000u);
  CHECK_EQ_U32(st, fl, 0);
  /* the smallest subnormal halved: a tie to even gives +0, UF|NX */
  CHECK_EQ_U32(st, vt_fp_scaled_op(VT_FMT_F64, VT_FP_SCALED_ADD, 1, 0, -1, 0, &fl), 0);
  CHECK_EQ_U32(st, fl, UF | NX);
  /* x - x = +0, -0 in RDN */
  fl = 0;
  CHECK(st, vt_fp_scaled_op(VT_FMT_F64, VT_FP_SCALED_SUB, 0x4000000000000000ull,
                            0x4000000000000000ull, 1, VT_RM_RDN, &fl) == 0x8000000000000000ull);
}

TEST(init) {
  (void)st;
  oracle_setup();
}

RUN_TESTS(T(init), T(scaled_vs_mpfr), T(known_answers))
