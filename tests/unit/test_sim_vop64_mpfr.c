/* VOP64 on the simulator (isa2025.md 3.8): every operation x form x legal
 * SEW (integer 8/16/32/64, float 16/32/64) with random OPSEL, NEG, ABS and,
 * for floating point, OMOD, CLAMP and rounding mode; the bytes/halves of vd
 * that OPSEL does not select stay unchanged. Integer expectations: host
 * arithmetic on the selected w-bit values; float: MPFR (oracle_scaled of
 * fp_oracle.h for add/sub/mul, the RISC-V min/max rules plus an MPFR
 * rounding of the scaled selection), then the clamp as 3.8.3 writes it.
 * Also the worked examples of 3.8.4, the .vf pair at SEW 64, and the errors:
 * reserved fields and integer OMOD/CLAMP (no instruction), vill, SEW 8
 * float, FS off, odd pairs, a prefix before a 64-bit instruction. */
#include "lane_harness.h"
#include "fp_oracle.h"

/* a VOP64 word from its operands in syntax order: vd, vs2, src1, neg, abs,
 * opsel[, omod, clamp] */
static uint64_t enc64(vt_insn_id id, const int *v) {
  const vt_insn_desc *d = vt_isa_insn(id);
  uint64_t w = d->match;
  for (unsigned k = 0; k < d->nops; k++) w = vt_operand_set64((vt_operand_id)d->ops[k], w, v[k]);
  if (vt_decode64(w) != id) {
    fprintf(stderr, "enc64: %016llx is not %s\n", (unsigned long long)w, d->mnemonic);
    abort();
  }
  return w;
}

static uint32_t vtype_of(unsigned w) { return w == 8 ? E8M1 : w == 16 ? E16M1 : w == 32 ? E32M1 : E64; }

static uint64_t pick(uint32_t x, unsigned w, unsigned s) {
  if (w == 8) return (x >> (s ? 16 : 0)) & 0xff;
  if (w == 16) return (x >> (s ? 16 : 0)) & 0xffff;
  return x;
}
static uint64_t mask_w(unsigned w) { return w == 64 ? ~0ull : (1ull << w) - 1; }
static uint64_t sx(uint64_t v, unsigned w) {
  return w == 64 ? v : (v & (1ull << (w - 1))) ? v | ~mask_w(w) : v;
}
static uint64_t imod(uint64_t x, unsigned w, unsigned n, unsigned a) {
  if (a && (int64_t)sx(x, w) < 0) x = (0 - x) & mask_w(w);
  if (n) x = (0 - x) & mask_w(w);
  return x;
}
static uint64_t fmod_(uint64_t x, unsigned w, unsigned n, unsigned a) {
  uint64_t s = 1ull << (w - 1);
  if (a) x &= ~s;
  if (n) x ^= s;
  return x;
}

static uint64_t int_ref(unsigned sem, uint32_t fl, unsigned w, uint64_t a, uint64_t b) {
  bool sg = fl & VT_F_SA;
  int64_t sa = (int64_t)sx(a, w), sb = (int64_t)sx(b, w);
  switch (sem) {
  case VT_SEM_ADD: return (a + b) & mask_w(w);
  case VT_SEM_SUB: return (a - b) & mask_w(w);
  case VT_SEM_MUL: return (a * b) & mask_w(w);
  case VT_SEM_MIN: return sg ? (sa < sb ? a : b) : (a < b ? a : b);
  default: return sg ? (sa > sb ? a : b) : (a > b ? a : b); /* MAX */
  }
}

static const ofmt *fmt_w(unsigned w) { return w == 16 ? &O_F16 : w == 32 ? &O_F32 : &O_F64; }

static uint64_t float_ref(unsigned sem, unsigned w, uint64_t a, uint64_t b, unsigned omod,
                          unsigned clamp, int rm, uint32_t *fl) {
  static const int scale[4] = {0, 1, 2, -1};
  const ofmt f = *fmt_w(w);
  const int k = scale[omod];
  uint64_t r;
  *fl = 0;
  if (sem == VT_SEM_FMIN || sem == VT_SEM_FMAX) {
    bool na = of_is_nan(f, a), nb = of_is_nan(f, b);
    if (of_is_snan(f, a) || of_is_snan(f, b)) *fl = NV;
    if (na && nb) r = of_cnan(f);
    else if (na) r = b;
    else if (nb) r = a;
    else {
      b2m(f, X, a);
      b2m(f, Y, b);
      int c = mpfr_cmp(X, Y);
      bool amin = c < 0 || (c == 0 && (a & of_sign(f)));
      r = (sem == VT_SEM_FMIN) == amin ? a : b;
    }
    if (!of_is_nan(f, r) && k) {
      b2m(f, X, r);
      mpfr_mul_2si(X, X, k, MPFR_RNDN);
      uint32_t f2 = 0;
      r = oracle_round(f, OP_CVT, rm, &f2);
      *fl |= f2;
    }
  } else {
    int op = sem == VT_SEM_FADD ? 0 : sem == VT_SEM_FSUB ? 1 : 2;
    r = oracle_scaled(f, op, a, b, k, rm, fl);
  }
  if (clamp) {
    uint64_t one = f.width == 16 ? 0x3c00 : f.width == 32 ? 0x3f800000u : 0x3ff0000000000000ull;
    if (of_is_nan(f, r) || (r & of_sign(f)) || r == 0) r = 0;
    else {
      b2m(f, X, r);
      if (mpfr_cmp_ui(X, 1) > 0) r = one;
    }
  }
  return r;
}

static uint64_t rand_val(unsigned w, bool fp, uint64_t *seed) {
  uint64_t r = lr_rand(seed);
  if (!fp || r % 3 == 0) return r & mask_w(w);
  const ofmt f = *fmt_w(w);
  uint64_t frac = r & (((uint64_t)1 << (f.p - 1)) - 1), sign = (r >> 62) & 1;
  uint64_t sp[] = {0, of_sign(f), of_inf(f), of_cnan(f), of_inf(f) | 1, 1, of_inf(f) - 1,
                   (uint64_t)f.emax << (f.p - 1)};
  if (r % 3 == 1) return sp[(r >> 32) % 8] | (sign << (f.width - 1));
  int e = f.emax - 3 + (int)((r >> 40) % 6); /* values near 1.0: clamp and scale interact */
  if ((r >> 50) % 4 == 0) e = (int)((r >> 40) % 3);             /* near the subnormals */
  if ((r >> 50) % 4 == 1) e = 2 * f.emax - (int)((r >> 40) % 3); /* near overflow */
  return (sign << (f.width - 1)) | ((uint64_t)e << (f.p - 1)) | frac;
}

/* one run: 4 lanes, random lane values with the selected fields random */
static void run_case(check_state *st, stats *s, vt_insn_id id, unsigned w, uint64_t *seed) {
  const vt_insn_desc *d = vt_isa_insn(id);
  const bool fp = d->flags & VT_F_FP, vx = d->flags & VT_F_BX;
  unsigned neg = (unsigned)(lr_rand(seed) % 4), abs = (unsigned)(lr_rand(seed) % 4);
  unsigned opsel = (unsigned)(lr_rand(seed) % 8), omod = fp ? (unsigned)(lr_rand(seed) % 4) : 0;
  unsigned clamp = fp ? (unsigned)(lr_rand(seed) % 2) : 0;
  int rm = (int)(lr_rand(seed) % 5);
  lrun t = {0};
  t.numt = 4;
  t.vtype = vtype_of(w);
  t.frm = (unsigned)rm;
  /* vd = v12, vs2 = v8, vs1 = v10 (pairs at SEW 64), rs1 = a0 */
  for (unsigned i = 0; i < 4; i++) {
    uint64_t a = rand_val(w, fp, seed), b = rand_val(w, fp, seed);
    if (w == 64) {
      lr_set64(&t, 8, i, a);
      lr_set64(&t, 10, i, b);
      lr_set64(&t, 12, i, lr_rand(seed));
    } else {
      /* the value in the selected place, random bits around it */
      uint32_t r2 = (uint32_t)lr_rand(seed), r1 = (uint32_t)lr_rand(seed);
      unsigned sh2 = w < 32 && (opsel & 2) ? 16 : 0, sh1 = w < 32 && (opsel & 1) ? 16 : 0;
      t.v[0][i] = w == 32 ? (uint32_t)a : (r2 & ~((uint32_t)mask_w(w) << sh2)) | ((uint32_t)a << sh2);
      t.v[2][i] = w == 32 ? (uint32_t)b : (r1 & ~((uint32_t)mask_w(w) << sh1)) | ((uint32_t)b << sh1);
      t.v[4][i] = (uint32_t)lr_rand(seed);
    }
  }
  uint64_t sc = rand_val(w, fp, seed);
  t.x[0] = (uint32_t)sc;
  t.x[1] = (uint32_t)(sc >> 32);
  int ops[8] = {12, 8, vx ? A0 : 10, (int)neg, (int)abs, (int)opsel, (int)omod, (int)clamp};
  lr_op64(&t, enc64(id, ops));
  lr_run(&t);
  if (t.rc != VT_OK) {
    st->failed_checks++;
    fprintf(stderr, "%s at SEW %u: %s\n", d->mnemonic, w, t.err.message);
    return;
  }
  uint32_t all = 0;
  for (unsigned i = 0; i < 4; i++) {
    uint64_t A, B, want, got;
    if (w == 64) {
      A = (uint64_t)t.v[1][i] << 32 | t.v[0][i];
      B = vx ? (fp ? sc : (uint64_t)(int64_t)(int32_t)t.x[0]) : (uint64_t)t.v[3][i] << 32 | t.v[2][i];
    } else {
      A = pick(t.v[0][i], w, (opsel >> 1) & 1);
      B = pick(vx ? t.x[0] : t.v[2][i], w, opsel & 1);
    }
    uint32_t fl = 0;
    if (fp) {
      A = fmod_(A, w, (neg >> 1) & 1, (abs >> 1) & 1);
      B = fmod_(B, w, neg & 1, abs & 1);
      want = float_ref(d->sem, w, A, B, omod, clamp, rm, &fl);
    } else {
      A = imod(A, w, (neg >> 1) & 1, (abs >> 1) & 1);
      B = imod(B, w, neg & 1, abs & 1);
      want = int_ref(d->sem, d->flags, w, A, B);
    }
    all |= fl;
    if (w == 64) {
      got = lr_get64(&t, 12, i);
    } else {
      /* the written place, and every other bit of vd unchanged */
      unsigned sh = w < 32 && (opsel & 4) ? 16 : 0;
      uint32_t keep = w == 32 ? 0 : ~((uint32_t)mask_w(w) << sh);
      got = (t.out[4][i] >> sh) & mask_w(w);
      if ((t.out[4][i] & keep) != (t.v[4][i] & keep)) {
        st->failed_checks++;
        fprintf(stderr, "%s SEW %u opsel %u: vd bits outside the result changed\n", d->mnemonic, w, opsel);
      }
    }
    char in[160];
    snprintf(in, sizeof in, "SEW %u lane %u a=%llx b=%llx neg %u abs %u opsel %u omod %u clamp %u %s",
             w, i, (unsigned long long)A, (unsigned long long)B, neg, abs, opsel, omod, clamp, rm_name[rm]);
    report(st, s, d->mnemonic, in, got, 0, want, 0);
  }
  CHECK_EQ_U32(st, t.fflags, all);
}

TEST(every_row_every_sew) {
  uint64_t seed = 0xfeedface12345678ull;
  stats s = {0, 0};
  for (unsigned id = 0; id < VT_INSN_COUNT; id++) {
    const vt_insn_desc *d = vt_isa_insn((vt_insn_id)id);
    if (d->ew != VT_EW_LANESEL) continue;
    for (unsigned w = 8; w <= 64; w *= 2) {
      if ((d->flags & VT_F_FP) && w == 8) continue;
      for (unsigned k = 0; k < 60; k++) run_case(st, &s, (vt_insn_id)id, w, &seed);
    }
  }
  printf("%ld lanes checked\n", s.cases);
}

/* 3.8.4's worked semantics */
TEST(worked_examples) {
  /* SEW 16: vop64.vsub.vv v200, v100, v50, opsel=7: high halves 5 - 2 = 3 */
  lrun t = {0};
  t.numt = 4;
  t.vtype = E16M1;
  t.x[0] = 0x00050003u, t.x[1] = 0x00020001u, t.x[2] = 0xaaaabbbbu;
  lr_op(&t, enc(VT_INSN_VSETVLI, T4, T5, E32M1));
  lr_op(&t, enc(VT_INSN_REGEXT, 3));      /* vd hi 011: v100 */
  lr_op(&t, enc(VT_INSN_VMV_V_X, 4, A0));
  lr_op(&t, enc(VT_INSN_REGEXT, 1));      /* v50 = 32 + 18 */
  lr_op(&t, enc(VT_INSN_VMV_V_X, 18, A1));
  lr_op(&t, enc(VT_INSN_REGEXT, 6));      /* v200 = 192 + 8 */
  lr_op(&t, enc(VT_INSN_VMV_V_X, 8, A2));
  lr_op(&t, enc(VT_INSN_VSETVLI, T4, T5, E16M1));
  lr_op64(&t, 0x01c06432c808103full);
  lr_op(&t, enc(VT_INSN_VSETVLI, T4, T5, E32M1));
  lr_op(&t, enc(VT_INSN_REGEXT, 6 << 6)); /* v9 = v200 + 0 */
  lr_op(&t, enc(VT_INSN_VADD_VI, 9, 8, 0, 1));
  lr_run(&t);
  LR_OK(st, &t);
  for (unsigned i = 0; i < 4 && t.rc == VT_OK; i++) CHECK_EQ_U32(st, t.out[1][i], 0x0003bbbbu);
  /* SEW 16: vfmul.vv opsel=0 on 0x40003c00 (1.0) and 0xbc003800 (0.5):
   * 0x3800 in the low half; with omod=1: 0x3c00 */
  for (unsigned om = 0; om < 2; om++) {
    lrun u = {0};
    u.numt = 4;
    u.vtype = E16M1;
    for (unsigned i = 0; i < 4; i++) u.v[0][i] = 0x40003c00u, u.v[2][i] = 0xbc003800u, u.v[4][i] = 0x12345678u;
    int ops[8] = {12, 8, 10, 0, 0, 0, (int)om, 0};
    lr_op64(&u, enc64(VT_INSN_VOP64_VFMUL_VV, ops));
    lr_run(&u);
    LR_OK(st, &u);
    CHECK_EQ_U32(st, u.out[4][0], om ? 0x12343c00u : 0x12343800u);
  }
  /* SEW 32: vop64.vfadd.vf v1, v2, a1, neg=1, abs=2: |V(2)| + (-X(11)) */
  lrun v = {0};
  v.numt = 4;
  v.vtype = E32M1;
  for (unsigned i = 0; i < 4; i++) v.v[0][i] = 0xc0400000u; /* -3.0 */
  v.x[1] = 0x3fc00000u;                                      /* 1.5 */
  int ops[8] = {12, 8, A1, 1, 2, 0, 0, 0};
  lr_op64(&v, enc64(VT_INSN_VOP64_VFADD_VF, ops));
  lr_run(&v);
  LR_OK(st, &v);
  CHECK_EQ_U32(st, v.out[4][2], 0x3fc00000u); /* 3.0 - 1.5 */
}

TEST(errors) {
  static const struct { uint32_t vtype; uint64_t insn; bool fs_off; const char *why; } E[] = {
      {E32M1, 0x0000141e0a00103full | (1ull << 7), false, "illegal instruction"}, /* bits 11:7 */
      {E32M1, 0x1000141e0a00103full, false, "illegal instruction"},               /* bits 63:60 */
      {E32M1, 0x0200020301000000ull | 0x103fu, false, "illegal instruction"},     /* vadd omod=1 */
      {E32M1, 0x0800020301000000ull | 0x103fu, false, "illegal instruction"},     /* vadd clamp */
      {E32M1, 0x0000000000002000ull | 0x103fu, false, "illegal instruction"},     /* sub-op 011 */
      {E8M1, 0x000002030100903full, false, "no 8-bit floating point"},            /* vfadd.vv */
      {E32M1, 0x000002030100903full, true, "FP used while mstatus.FS is Off"},
      {E64, 0x000008090a00103full, false, "odd register where a pair is required"}, /* vs1 v9 */
      {E64, 0x0000080b0c12903full, false, "odd register where a pair is required"}, /* vfmin.vf a1 */
  };
  for (unsigned k = 0; k < sizeof E / sizeof E[0]; k++) {
    lrun t = {0};
    t.numt = 4;
    t.vtype = E[k].vtype;
    t.fs_off = E[k].fs_off;
    lr_op64(&t, E[k].insn);
    lr_run(&t);
    LR_ILLEGAL(st, &t, E[k].why);
  }
  /* vill: a VOP64 before any vsetvli */
  lrun v = {0};
  v.numt = 4;
  v.vtype = 0x01f; /* e64, mf2: vill (C5) */
  lr_op64(&v, 0x0000141e0a00103full);
  lr_run(&v);
  LR_ILLEGAL(st, &v, "vector instruction while vtype is illegal");
  /* a prefix directly before a 64-bit instruction (3.5.4 rule 3) */
  lrun p = {0};
  p.numt = 4;
  p.vtype = E32M1;
  lr_op(&p, enc(VT_INSN_REGEXT, 0));
  lr_op64(&p, 0x0000141e0a00103full);
  lr_run(&p);
  LR_ILLEGAL(st, &p, "a prefix before a 64-bit instruction (isa2025.md D21)");
}

TEST(init) {
  (void)st;
  oracle_setup();
}

RUN_TESTS(T(init), T(every_row_every_sew), T(worked_examples), T(errors))
