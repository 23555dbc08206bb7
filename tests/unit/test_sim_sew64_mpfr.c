/* Vector binary64 on the simulator against GNU MPFR (isa2025.md 3.2.2,
 * 3.2.3): every FP instruction legal at SEW 64 and every FP widening row at
 * SEW 32, on random and special values (zeros, subnormals, infinities,
 * quiet and signalling NaNs, ties) in all five rounding modes through frm.
 * Each lane's result bits come from one run of the instruction; each lane's
 * fflags from the same instruction repeated with only that lane active (v0.t).
 * Expected values: tests/unit/fp_oracle.h (MPFR) for arithmetic and
 * conversions, the RISC-V rules written out here for compares, min/max,
 * sign injection, classification and moves. */
#include "lane_harness.h"
#include "fp_oracle.h"

/* ---- operands ---- */

static uint64_t special64(unsigned k) {
  static const uint64_t s[] = {
      0, 0x8000000000000000ull, 0x7ff0000000000000ull, 0xfff0000000000000ull,
      0x7ff8000000000000ull, 0x7ff0000000000001ull, 0xfff4000000000000ull, /* qNaN, sNaNs */
      1, 0x000fffffffffffffull, 0x0010000000000000ull, 0x7fefffffffffffffull,
      0x3ff0000000000000ull, 0x3ca0000000000000ull /* 2^-53: ties with 1.0 */,
      0xbff0000000000000ull, 0x4000000000000000ull, 0x3ff0000000000001ull,
  };
  return s[k % (sizeof s / sizeof s[0])];
}

static uint64_t rand64(uint64_t *seed) {
  uint64_t r = lr_rand(seed);
  switch (r % 5) {
  case 0: return special64((unsigned)(r >> 8));
  case 1: return r; /* any bits */
  case 2: /* exponents near 1.0: sums and products interact */
    return (r & 0x800fffffffffffffull) | (uint64_t)(1013 + (r >> 52) % 20) << 52;
  case 3: /* near the subnormal range */
    return (r & 0x800fffffffffffffull) | (uint64_t)((r >> 53) % 3) << 52;
  default: /* near overflow */
    return (r & 0x800fffffffffffffull) | (uint64_t)(2040 + (r >> 53) % 7) << 52;
  }
}

static uint32_t rand32(uint64_t *seed) {
  uint64_t r = lr_rand(seed);
  static const uint32_t s[] = {0, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u,
                               0x7f800001u, 0x00000001u, 0x3f800000u, 0x33800000u, 0x7f7fffffu};
  switch (r % 4) {
  case 0: return s[(r >> 8) % 10];
  case 1: return (uint32_t)(r >> 16);
  default: return ((uint32_t)(r >> 16) & 0x807fffffu) | (uint32_t)(117 + (r >> 40) % 20) << 23;
  }
}

/* An MPFR oracle for operands of different formats (widening rows read
 * binary32 and binary64 operands): NaN rules of oracle() per operand. */
static uint64_t mixed(int op, ofmt fa, uint64_t a, ofmt fb, uint64_t b, ofmt fc, uint64_t c, int rm,
                      uint32_t *fl) {
  int nin = op == OP_SQRT || op == OP_CVT ? 1 : op >= OP_FMA ? 3 : 2;
  const ofmt f[3] = {fa, fb, fc};
  const uint64_t v[3] = {a, b, c};
  int any_nan = 0;
  *fl = 0;
  for (int i = 0; i < nin; i++) {
    any_nan |= of_is_nan(f[i], v[i]);
    if (of_is_snan(f[i], v[i])) *fl |= NV;
  }
  if (op >= OP_FMA && op != OP_CVT &&
      ((of_is_inf(fa, a) && of_is_zero(fb, b)) || (of_is_zero(fa, a) && of_is_inf(fb, b))))
    *fl |= NV;
  if (any_nan) return of_cnan(O_F64);
  b2m(fa, X, a);
  if (nin >= 2) b2m(fb, Y, b);
  if (nin >= 3) b2m(fc, Z, c);
  return oracle_round(O_F64, op, rm, fl);
}

/* ---- one operation over batches of 32 lanes ---- */

typedef struct fop {
  vt_insn_id id;
  int op;       /* OP_*, or -1: a rule-based operation (compares, min/max, ...) */
  char order;   /* oracle operand order: 'a' (A op B), 'r' (B op A), 'c' (B*A+C), 'd' (B*C+A) */
  bool vf;      /* B is the scalar pair a0/a1 */
  bool narrow;  /* widening at SEW 32: narrow operands binary32 */
  bool wide2;   /* .wv/.wf: A is a binary64 pair */
} fop;

/* registers: A = v8 (pair v8/v9, or narrow v9), B = v10 (narrow v11),
 * C = v12 (vd), a copy of C in v14 for the per-lane runs */
static uint32_t word_of(const fop *o, unsigned vd, bool masked) {
  const vt_insn_desc *d = vt_isa_insn(o->id);
  unsigned a = o->narrow && !o->wide2 ? 9 : 8, b = o->narrow && !o->wide2 ? 11 : 10;
  int vm = masked ? 0 : 1;
  bool rvd = (d->flags & VT_F_RVD) != 0;
  if (d->nops == 3) return enc(o->id, (int)vd, (int)a, vm); /* unary: vd, vs2, vm */
  if (o->vf) return rvd ? enc(o->id, (int)vd, A0, (int)a, vm) : enc(o->id, (int)vd, (int)a, A0, vm);
  return rvd ? enc(o->id, (int)vd, (int)b, (int)a, vm) : enc(o->id, (int)vd, (int)a, (int)b, vm);
}

static uint64_t expect_rule(vt_insn_id id, uint64_t a, uint64_t b, uint32_t *fl);

static void run_fop(check_state *st, stats *s, const fop *o, unsigned batches, uint64_t seed) {
  const ofmt fn = o->narrow ? O_F32 : O_F64;
  for (unsigned bt = 0; bt < batches; bt++)
    for (int rm = 0; rm < 5; rm++) {
      lrun t = {0};
      t.vtype = o->narrow ? E32M1 : E64;
      t.frm = (unsigned)rm;
      uint64_t A[32], B[32], C[32];
      uint64_t scal = o->narrow ? rand32(&seed) : rand64(&seed);
      for (unsigned i = 0; i < 32; i++) {
        bool wa = !o->narrow || o->wide2;
        A[i] = wa ? rand64(&seed) : rand32(&seed);
        B[i] = o->vf ? scal : o->narrow ? rand32(&seed) : rand64(&seed);
        C[i] = rand64(&seed);
        if (wa) lr_set64(&t, 8, i, A[i]); else t.v[1][i] = (uint32_t)A[i];
        if (o->narrow) t.v[3][i] = (uint32_t)B[i]; else lr_set64(&t, 10, i, B[i]);
        if (o->narrow && o->wide2 && !o->vf) lr_set64(&t, 10, i, B[i] = rand64(&seed));
        lr_set64(&t, 12, i, C[i]);
        lr_set64(&t, 14, i, C[i]);
      }
      t.x[0] = (uint32_t)scal;
      t.x[1] = (uint32_t)(scal >> 32);
      lr_op(&t, word_of(o, 12, false));
      t.lane_op = word_of(o, 14, true);
      lr_run(&t);
      if (t.rc != VT_OK) {
        st->failed_checks++;
        fprintf(stderr, "%s: %s\n", vt_isa_insn(o->id)->mnemonic, t.err.message);
        return;
      }
      uint32_t all = 0;
      for (unsigned i = 0; i < 32; i++) {
        uint32_t fl;
        uint64_t want;
        ofmt fa = o->narrow && !o->wide2 ? O_F32 : O_F64;
        ofmt fb = o->narrow && !(o->wide2 && !o->vf) ? O_F32 : O_F64;
        if (o->op < 0) {
          want = expect_rule(o->id, A[i], B[i], &fl);
        } else if (o->op == OP_CVT) {
          want = mixed(OP_CVT, fn, A[i], fn, 0, fn, 0, rm, &fl);
        } else if (o->order == 'r') {
          want = mixed(o->op, fb, B[i], fa, A[i], O_F64, 0, rm, &fl);
        } else if (o->order == 'c') {
          want = mixed(o->op, fb, B[i], fa, A[i], O_F64, C[i], rm, &fl);
        } else if (o->order == 'd') {
          want = mixed(o->op, fb, B[i], O_F64, C[i], fa, A[i], rm, &fl);
        } else {
          want = mixed(o->op, fa, A[i], fb, B[i], O_F64, 0, rm, &fl);
        }
        all |= fl;
        char in[128];
        snprintf(in, sizeof in, "%s lane %u a=%016llx b=%016llx c=%016llx",
                 rm_name[rm], i, (unsigned long long)A[i], (unsigned long long)B[i], (unsigned long long)C[i]);
        report(st, s, vt_isa_insn(o->id)->mnemonic, in, lr_get64(&t, 12, i), t.lane_flags[i], want, fl);
      }
      CHECK_EQ_U32(st, t.fflags, all); /* the unmasked run ORs every lane's flags (C3) */
    }
}

/* ---- rule-based expectations (RISC-V, written out) ---- */

static int cmp64(uint64_t a, uint64_t b) { /* non-NaN: -1, 0, 1 */
  b2m(O_F64, X, a);
  b2m(O_F64, Y, b);
  return mpfr_cmp(X, Y);
}

static uint64_t expect_rule(vt_insn_id id, uint64_t a, uint64_t b, uint32_t *fl) {
  const ofmt f = O_F64;
  bool na = of_is_nan(f, a), nb = of_is_nan(f, b), sn = of_is_snan(f, a) || of_is_snan(f, b);
  *fl = 0;
  switch (id) {
  case VT_INSN_VMFEQ_VV: case VT_INSN_VMFNE_VV: {
    if (sn) *fl = NV;
    bool eq = !na && !nb && cmp64(a, b) == 0;
    return id == VT_INSN_VMFEQ_VV ? eq : !eq;
  }
  case VT_INSN_VMFLT_VV: case VT_INSN_VMFLE_VV:
    if (na || nb) {
      *fl = NV;
      return 0;
    }
    return id == VT_INSN_VMFLT_VV ? cmp64(a, b) < 0 : cmp64(a, b) <= 0;
  case VT_INSN_VFMIN_VV: case VT_INSN_VFMAX_VV: {
    if (sn) *fl = NV;
    if (na && nb) return of_cnan(f);
    if (na) return b;
    if (nb) return a;
    int c = cmp64(a, b);
    bool amin = c < 0 || (c == 0 && (a >> 63)); /* -0 < +0 */
    return id == VT_INSN_VFMIN_VV ? (amin ? a : b) : (amin ? b : a);
  }
  case VT_INSN_VFSGNJ_VV: return (a & ~of_sign(f)) | (b & of_sign(f));
  case VT_INSN_VFSGNJN_VV: return (a & ~of_sign(f)) | (~b & of_sign(f));
  case VT_INSN_VFSGNJX_VV: return a ^ (b & of_sign(f));
  case VT_INSN_VFCLASS_V: {
    bool neg = a >> 63;
    if (of_is_inf(f, a)) return neg ? 1u << 0 : 1u << 7;
    if (na) return of_is_snan(f, a) ? 1u << 8 : 1u << 9;
    if (of_is_zero(f, a)) return neg ? 1u << 3 : 1u << 4;
    bool sub = ((a >> 52) & 0x7ff) == 0;
    return neg ? (sub ? 1u << 2 : 1u << 1) : (sub ? 1u << 5 : 1u << 6);
  }
  default: abort();
  }
}

/* ---- the tests ---- */

#define FOP(id, op, order) {VT_INSN_##id, op, order, false, false, false}
#define FOPF(id, op, order) {VT_INSN_##id, op, order, true, false, false}

TEST(arith_sew64_vs_mpfr) {
  static const fop ops[] = {
      FOP(VFADD_VV, OP_ADD, 'a'),    FOP(VFSUB_VV, OP_SUB, 'a'),    FOP(VFMUL_VV, OP_MUL, 'a'),
      FOP(VFDIV_VV, OP_DIV, 'a'),    FOP(VFSQRT_V, OP_SQRT, 'a'),   FOPF(VFADD_VF, OP_ADD, 'a'),
      FOPF(VFRSUB_VF, OP_SUB, 'r'),  FOPF(VFRDIV_VF, OP_DIV, 'r'),  FOPF(VFMUL_VF, OP_MUL, 'a'),
      FOP(VFMACC_VV, OP_FMA, 'c'),   FOP(VFNMACC_VV, OP_FNMADD, 'c'), FOP(VFMSAC_VV, OP_FMSUB, 'c'),
      FOP(VFNMSAC_VV, OP_FNMSUB, 'c'), FOP(VFMADD_VV, OP_FMA, 'd'), FOP(VFNMADD_VV, OP_FNMADD, 'd'),
      FOP(VFMSUB_VV, OP_FMSUB, 'd'), FOP(VFNMSUB_VV, OP_FNMSUB, 'd'), FOPF(VFMACC_VF, OP_FMA, 'c'),
      FOPF(VFNMSUB_VF, OP_FNMSUB, 'd'),
  };
  stats s = {0, 0};
  for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) run_fop(st, &s, &ops[k], 4, 1000 + k);
  printf("binary64 arithmetic: %ld lanes x rounding modes checked\n", s.cases);
}

TEST(rules_sew64) {
  static const fop ops[] = {
      FOP(VMFEQ_VV, -1, 'a'), FOP(VMFNE_VV, -1, 'a'), FOP(VMFLT_VV, -1, 'a'), FOP(VMFLE_VV, -1, 'a'),
      FOP(VFMIN_VV, -1, 'a'), FOP(VFMAX_VV, -1, 'a'), FOP(VFSGNJ_VV, -1, 'a'),
      FOP(VFSGNJN_VV, -1, 'a'), FOP(VFSGNJX_VV, -1, 'a'), FOP(VFCLASS_V, -1, 'a'),
  };
  stats s = {0, 0};
  for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) run_fop(st, &s, &ops[k], 2, 2000 + k);
}

/* float <-> 64-bit integer conversions at SEW 64 (C6) */
TEST(conversions_sew64) {
  static const struct { vt_insn_id id; bool to_int, sg, rtz; } C[] = {
      {VT_INSN_VFCVT_XU_F_V, true, false, false},    {VT_INSN_VFCVT_X_F_V, true, true, false},
      {VT_INSN_VFCVT_RTZ_XU_F_V, true, false, true}, {VT_INSN_VFCVT_RTZ_X_F_V, true, true, true},
      {VT_INSN_VFCVT_F_XU_V, false, false, false},   {VT_INSN_VFCVT_F_X_V, false, true, false},
  };
  stats s = {0, 0};
  uint64_t seed = 31;
  for (unsigned k = 0; k < 6; k++)
    for (int rm = 0; rm < 5; rm++)
      for (unsigned bt = 0; bt < 3; bt++) {
        lrun t = {0};
        t.vtype = E64;
        t.frm = (unsigned)rm;
        uint64_t A[32];
        for (unsigned i = 0; i < 32; i++) {
          A[i] = C[k].to_int ? rand64(&seed) : lr_rand(&seed) >> (lr_rand(&seed) % 64);
          if (!C[k].to_int && (i & 1)) A[i] = (uint64_t)-(int64_t)A[i];
          lr_set64(&t, 8, i, A[i]);
        }
        lr_op(&t, enc(C[k].id, 12, 8, 1));
        t.lane_op = enc(C[k].id, 14, 8, 0);
        lr_run(&t);
        LR_OK(st, &t);
        for (unsigned i = 0; i < 32 && t.rc == VT_OK; i++) {
          uint32_t fl = 0;
          uint64_t want;
          int erm = C[k].rtz ? VT_RM_RTZ : rm;
          if (C[k].to_int) {
            want = oracle_to_int(O_F64, A[i], 64, C[k].sg, erm, &fl);
          } else {
            if (C[k].sg) mpfr_set_sj(X, (intmax_t)(int64_t)A[i], MPFR_RNDN);
            else mpfr_set_uj(X, (uintmax_t)A[i], MPFR_RNDN);
            want = oracle_round(O_F64, OP_CVT, rm, &fl);
          }
          char in[64];
          snprintf(in, sizeof in, "%s %016llx", rm_name[rm], (unsigned long long)A[i]);
          report(st, &s, vt_isa_insn(C[k].id)->mnemonic, in, lr_get64(&t, 12, i), t.lane_flags[i], want, fl);
        }
      }
}

/* vfmv.v.f, vfmerge.vfm, vfmv.s.f, vfmv.f.s with scalar pairs; rec7/rsqrt7
 * on hand-computed values (RVV 1.0 tables: entry 0 of rec7 and entry 64 of
 * rsqrt7 are 127) */
TEST(moves_and_estimates_sew64) {
  lrun t = {0};
  t.vtype = E64;
  t.x[0] = 0x00000001u, t.x[1] = 0x400921fbu; /* a0/a1 */
  t.x[2] = 0x55555555u; /* a2/a3 receive vfmv.f.s */
  lr_set64(&t, 8, 0, 0x3ff0000000000000ull); /* 1.0 */
  lr_set64(&t, 8, 1, 0x4000000000000000ull); /* 2.0 */
  lr_set64(&t, 8, 2, 0x4010000000000000ull); /* 4.0 */
  lr_set64(&t, 8, 3, 0);                     /* +0 */
  lr_set64(&t, 8, 4, 0xfff0000000000000ull); /* -inf */
  lr_set64(&t, 8, 5, 0xbff0000000000000ull); /* -1.0 */
  for (unsigned i = 6; i < 32; i++) lr_set64(&t, 8, i, 0x3ff0000000000000ull);
  t.x[3] = 0x0000000au; /* v0.mask for vfmerge */
  lr_op(&t, enc(VT_INSN_VFMV_V_F, 10, A0));
  lr_op(&t, enc(VT_INSN_VMV_S_X, 0, A3));
  lr_op(&t, enc(VT_INSN_VFMERGE_VFM, 12, 8, A0));
  lr_op(&t, enc(VT_INSN_VFMV_F_S, A2, 8));
  lr_op(&t, enc(VT_INSN_VFREC7_V, 14, 8, 1));
  lr_run(&t);
  LR_OK(st, &t);
  const uint64_t pi = 0x400921fb00000001ull;
  for (unsigned i = 0; i < 32 && t.rc == VT_OK; i++) {
    CHECK(st, lr_get64(&t, 10, i) == pi);
    uint64_t a = (uint64_t)t.v[1][i] << 32 | t.v[0][i];
    CHECK(st, lr_get64(&t, 12, i) == ((0xau >> i) & 1 ? pi : a));
  }
  CHECK_EQ_U32(st, t.xo[2], 0);           /* vfmv.f.s: XP(12) = 1.0 */
  CHECK_EQ_U32(st, t.xo[3], 0x3ff00000u);
  CHECK(st, lr_get64(&t, 14, 0) == 0x3fefe00000000000ull); /* rec7(1.0) */
  CHECK(st, lr_get64(&t, 14, 1) == 0x3fdfe00000000000ull); /* rec7(2.0) */
  CHECK(st, lr_get64(&t, 14, 3) == 0x7ff0000000000000ull); /* rec7(+0) = +inf, DZ */
  CHECK(st, lr_get64(&t, 14, 4) == 0x8000000000000000ull); /* rec7(-inf) = -0 */
  CHECK_EQ_U32(st, t.fflags, DZ);
  lrun u = t;
  u.n = 0;
  lr_op(&u, enc(VT_INSN_VFRSQRT7_V, 14, 8, 1));
  lr_op(&u, enc(VT_INSN_VFMV_S_F, 12, A0));
  lr_run(&u);
  LR_OK(st, &u);
  CHECK(st, lr_get64(&u, 14, 0) == 0x3fefe00000000000ull); /* rsqrt7(1.0) */
  CHECK(st, lr_get64(&u, 14, 2) == 0x3fdfe00000000000ull); /* rsqrt7(4.0) = rsqrt7(1.0) / 2 */
  CHECK(st, lr_get64(&u, 14, 3) == 0x7ff0000000000000ull); /* +inf, DZ */
  CHECK(st, lr_get64(&u, 14, 5) == 0x7ff8000000000000ull); /* -1: canonical NaN, NV */
  CHECK_EQ_U32(st, u.fflags, DZ | NV);
  CHECK(st, lr_get64(&u, 12, 0) == pi);   /* vfmv.s.f: element 0 only */
  CHECK(st, lr_get64(&u, 12, 1) == ((uint64_t)u.v[5][1] << 32 | u.v[4][1]));
}

/* ---- widening at SEW 32 into binary64 pairs (3.2.3) ---- */

#define WOP(id, op, order, vf, wide) {VT_INSN_##id, op, order, vf, true, wide}

TEST(widening_fp_sew32_vs_mpfr) {
  static const fop ops[] = {
      WOP(VFWADD_VV, OP_ADD, 'a', false, false), WOP(VFWADD_VF, OP_ADD, 'a', true, false),
      WOP(VFWSUB_VV, OP_SUB, 'a', false, false), WOP(VFWSUB_VF, OP_SUB, 'a', true, false),
      WOP(VFWADD_W_WV, OP_ADD, 'a', false, true), WOP(VFWSUB_W_WV, OP_SUB, 'a', false, true),
      WOP(VFWADD_W_WF, OP_ADD, 'a', true, true), WOP(VFWSUB_W_WF, OP_SUB, 'a', true, true),
      WOP(VFWMUL_VV, OP_MUL, 'a', false, false), WOP(VFWMUL_VF, OP_MUL, 'a', true, false),
      WOP(VFWMACC_VV, OP_FMA, 'c', false, false), WOP(VFWNMACC_VV, OP_FNMADD, 'c', false, false),
      WOP(VFWMSAC_VV, OP_FMSUB, 'c', false, false), WOP(VFWNMSAC_VV, OP_FNMSUB, 'c', false, false),
      WOP(VFWMACC_VF, OP_FMA, 'c', true, false), WOP(VFWNMSAC_VF, OP_FNMSUB, 'c', true, false),
      WOP(VFWCVT_F_F_V, OP_CVT, 'a', false, false),
  };
  stats s = {0, 0};
  for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) run_fop(st, &s, &ops[k], 3, 3000 + k);
}

/* vfwcvt between binary32 / int32 and binary64 / int64 */
TEST(widening_conversions_sew32) {
  static const struct { vt_insn_id id; int kind; bool sg; } C[] = {
      {VT_INSN_VFWCVT_X_F_V, 0, true},      {VT_INSN_VFWCVT_XU_F_V, 0, false},
      {VT_INSN_VFWCVT_RTZ_X_F_V, 1, true},  {VT_INSN_VFWCVT_RTZ_XU_F_V, 1, false},
      {VT_INSN_VFWCVT_F_X_V, 2, true},      {VT_INSN_VFWCVT_F_XU_V, 2, false},
  };
  stats s = {0, 0};
  uint64_t seed = 57;
  for (unsigned k = 0; k < 6; k++)
    for (int rm = 0; rm < 5; rm++) {
      lrun t = {0};
      t.vtype = E32M1;
      t.frm = (unsigned)rm;
      uint32_t A[32];
      for (unsigned i = 0; i < 32; i++) {
        A[i] = C[k].kind == 2 ? (uint32_t)lr_rand(&seed) : rand32(&seed);
        t.v[1][i] = A[i];
      }
      lr_op(&t, enc(C[k].id, 12, 9, 1));
      t.lane_op = enc(C[k].id, 14, 9, 0);
      lr_run(&t);
      LR_OK(st, &t);
      for (unsigned i = 0; i < 32 && t.rc == VT_OK; i++) {
        uint32_t fl = 0;
        uint64_t want;
        if (C[k].kind < 2) {
          want = oracle_to_int(O_F32, A[i], 64, C[k].sg, C[k].kind ? VT_RM_RTZ : rm, &fl);
        } else {
          if (C[k].sg) mpfr_set_si(X, (int32_t)A[i], MPFR_RNDN);
          else mpfr_set_ui(X, A[i], MPFR_RNDN);
          want = oracle_round(O_F64, OP_CVT, rm, &fl); /* exact: no flags */
        }
        char in[64];
        snprintf(in, sizeof in, "%s %08x", rm_name[rm], A[i]);
        report(st, &s, vt_isa_insn(C[k].id)->mnemonic, in, lr_get64(&t, 12, i), t.lane_flags[i], want, fl);
      }
    }
}

TEST(init) {
  (void)st;
  oracle_setup();
}

RUN_TESTS(T(init), T(arith_sew64_vs_mpfr), T(rules_sew64), T(conversions_sew64),
          T(moves_and_estimates_sew64), T(widening_fp_sew32_vs_mpfr), T(widening_conversions_sew32))
