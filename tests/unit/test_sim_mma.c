/* MMA and MMA64 executed by the functional simulator (isa2025.md 3.6, 3.7,
 * 4): every row of the table with random fragments, every FP8 and FP6/FP4
 * value pair, special binary16 pairs in every rounding mode, layout probes
 * with distinct values, register extension, overlapping groups, MMA64 =
 * MMA (C20), no fflags, and the errors of 3.6.4 / 3.7.3 in their order.
 * Expected results come from the test's own reference (mma_ref.h: exact
 * rationals and a textbook rounder) and layouts (mma_spec_layout.h); the
 * instruction words from the bit layouts (mma_sim.h). */
#include "check.h"
#include "mma_sim.h"
#include "mma_text.h"

static uint64_t rs = 0x9e3779b97f4a7c15ull;
static uint32_t rnd32(void) {
  rs ^= rs >> 12;
  rs ^= rs << 25;
  rs ^= rs >> 27;
  return (uint32_t)((rs * 0x2545F4914F6CDD1DULL) >> 32);
}

static const tform *find_tform(int type, int shape) {
  for (size_t i = 0; i < N_TFORMS; i++)
    if ((int)TFORMS[i].type == type && TFORMS[i].shape == shape) return &TFORMS[i];
  return NULL;
}

/* a random element of type t: raw bits, or (tame) a finite value of
 * moderate magnitude with random sign */
static uint32_t rnd_elem(vt_mma_type t, int bits, int tame) {
  uint32_t v = rnd32();
  if (bits < 32) v &= (1u << bits) - 1u;
  if (!tame) return v;
  switch (t) {
  case VT_MMA_F32: return (v & 0x807fffffu) | (uint32_t)(120 + rnd32() % 16) << 23;
  case VT_MMA_BF16: return (v & 0x807fu) | (uint32_t)(120 + rnd32() % 16) << 7;
  case VT_MMA_F16: return (v & 0x83ffu) | (uint32_t)(8 + rnd32() % 14) << 10;
  case VT_MMA_E4M3: return (v & 0x87u) | (uint32_t)(1 + rnd32() % 14) << 3;
  case VT_MMA_E5M2: return (v & 0x83u) | (uint32_t)(1 + rnd32() % 30) << 2;
  default: return v;
  }
}

static void fill_regs(uint32_t (*regs)[32], int n, vt_mma_type t, int bits, int tame) {
  for (int r = 0; r < n; r++)
    for (int l = 0; l < 32; l++) {
      uint32_t w = 0;
      for (int j = 0; j < 32 / bits; j++) w |= rnd_elem(t, bits, tame) << (bits * j) % 32;
      regs[r][l] = bits == 32 ? rnd_elem(t, 32, tame) : w;
    }
}

/* C/D elements: f32/s32 words or two f16 halves */
static void fill_c(mma_sim *s, int tame) {
  vt_mma_type ct = s->cd16 ? VT_MMA_F16 : tform_is_int(s->F) ? VT_MMA_S8 : VT_MMA_F32;
  if (tform_is_int(s->F))
    fill_regs(s->C, 8, ct, 32, 0);
  else
    fill_regs(s->C, 8, ct, s->cd16 ? 16 : 32, tame);
}

static int compare(check_state *st, mma_sim *s, const char *what) {
  uint32_t exp[8][32];
  mma_sim_expect(s, exp);
  int bad = 0;
  if (s->rc != VT_OK) {
    fprintf(stderr, "%s: run failed: %s\n", what, s->err.message);
    st->failed_checks++;
    return 1;
  }
  for (int r = 0; r < mma_sim_nc(s); r++)
    for (int l = 0; l < 32; l++)
      if (s->D[r][l] != exp[r][l] && bad++ < 3)
        fprintf(stderr, "%s: D register %d lane %d = 0x%08x, expected 0x%08x\n", what, r, l,
                s->D[r][l], exp[r][l]);
  CHECK(st, bad == 0);
  return bad;
}

static void setup_from_row(mma_sim *s, const vt_insn_desc *d) {
  char line[160];
  mma_text t;
  snprintf(line, sizeof line, "%s v0, v0, v0, v0", d->mnemonic);
  if (!mma_text_parse(line, &t)) {
    snprintf(line, sizeof line, "%s v0, v0, v0", d->mnemonic);
    mma_text_parse(line, &t);
  }
  memset(s, 0, sizeof *s);
  s->F = find_tform(t.type, t.shape);
  s->cd16 = !t.ct;
  s->is64 = t.is64;
  s->al = t.al;
  s->bl = t.bl;
  s->relu = t.relu;
  s->sat = t.sat;
  s->rnd = t.is64 ? (t.rnd >= 0 ? t.rnd : !t.sat) : (int)(rnd32() % 5);
  s->a_reg = 8;
  s->b_reg = 20;
  s->c_reg = 24;
  s->d_reg = t.is64 ? ((rnd32() & 1) ? 24 : 40) : 24;
}

TEST(every_row_against_the_reference) {
  unsigned rows = 0, runs = 0;
  for (unsigned id = 0; id < vt_isa_insn_count(); id++) {
    const vt_insn_desc *d = vt_isa_insn((vt_insn_id)id);
    if (d->sem != VT_SEM_MMA) continue;
    rows++;
    for (int k = 0; k < 3; k++) {
      mma_sim s;
      setup_from_row(&s, d);
      CHECK(st, s.F != NULL);
      if (!s.F) break;
      fill_regs(s.A, s.F->na, s.F->type, s.F->bits, k > 0);
      fill_regs(s.B, s.F->nb, s.F->type, s.F->bits, k > 0);
      fill_c(&s, k > 0);
      mma_sim_run(&s);
      char what[160];
      snprintf(what, sizeof what, "%s (run %d, rounding %d)", d->mnemonic, k, s.rnd);
      compare(st, &s, what);
      CHECK_EQ_U32(st, s.fflags, 0); /* inexact, NaN, overflow: no flags (D29) */
      runs++;
    }
  }
  CHECK_EQ_U32(st, rows, 80 + 248); /* the MMA and MMA64 rows */
  printf("%u MMA/MMA64 rows, %u runs\n", rows, runs);
}

/* element arrays -> register contents with the spec layouts */
static void scatter(mma_sim *s, int op, const uint32_t *elems, uint32_t (*regs)[32], int nregs) {
  const tform *F = s->F;
  int bits = op == 2 ? (s->cd16 ? 16 : 32) : F->bits, cols = op == 0 ? F->k : F->n;
  for (int r = 0; r < nregs; r++)
    for (int lane = 0; lane < 32; lane++) {
      uint32_t w = 0;
      for (int j = 0; j < 32 / bits; j++) {
        int row, col;
        if (spec_elem(F, s->cd16, s->al, s->bl, op, r, lane, j, &row, &col))
          w |= (bits == 32 ? elems[row * cols + col] : elems[row * cols + col] & ((1u << bits) - 1u))
               << (bits * j % 32);
      }
      regs[r][lane] = w;
    }
}

/* Every pair (a, b) of the value lists occurs as a product A[m][k] * B[k][n]:
 * blocks of M A-values x N B-values, one block per k, as many runs as
 * needed; each run is checked against the reference in every rounding mode
 * the instruction can take. */
static unsigned all_pairs(check_state *st, const tform *F, int is64, int cd16, const uint32_t *va,
                          unsigned na, const uint32_t *vb, unsigned nb, const char *what) {
  unsigned ablocks = na / (unsigned)F->m, bblocks = nb / (unsigned)F->n;
  unsigned blocks = ablocks * bblocks, runs = 0;
  for (unsigned first = 0; first < blocks; first += (unsigned)F->k) {
    static uint32_t A[1024], B[1024];
    memset(A, 0, sizeof A);
    memset(B, 0, sizeof B);
    for (int k = 0; k < F->k && first + (unsigned)k < blocks; k++) {
      unsigned u = first + (unsigned)k, ab = u % ablocks, bb = u / ablocks;
      for (int m = 0; m < F->m; m++) A[m * F->k + k] = va[ab * (unsigned)F->m + (unsigned)m];
      for (int n = 0; n < F->n; n++) B[k * F->n + n] = vb[bb * (unsigned)F->n + (unsigned)n];
    }
    for (int rm = 0; rm < (is64 ? 4 : 5); rm++) {
      mma_sim s;
      memset(&s, 0, sizeof s);
      s.F = F;
      s.cd16 = cd16;
      s.is64 = is64;
      s.rnd = rm;
      s.a_reg = 8;
      s.b_reg = 20;
      s.c_reg = 24;
      s.d_reg = is64 ? 40 : 24;
      scatter(&s, 0, A, s.A, F->na);
      scatter(&s, 1, B, s.B, F->nb);
      fill_c(&s, 1);
      mma_sim_run(&s);
      char w[96];
      snprintf(w, sizeof w, "%s, run %u, rounding %d", what, first / (unsigned)F->k, rm);
      compare(st, &s, w);
      runs++;
    }
  }
  return runs;
}

TEST(every_fp8_fp6_fp4_pair) {
  static uint32_t v[256];
  for (unsigned i = 0; i < 256; i++) v[i] = i;
  unsigned runs = 0;
  runs += all_pairs(st, find_tform(VT_MMA_E4M3, 3), 0, 0, v, 256, v, 256, "e4m3 x e4m3");
  runs += all_pairs(st, find_tform(VT_MMA_E5M2, 3), 0, 0, v, 256, v, 256, "e5m2 x e5m2");
  runs += all_pairs(st, find_tform(VT_MMA_E4M3, 3), 1, 0, v, 256, v, 256, "mma64 e4m3 x e4m3");
  /* FP6: 64 encodings, FP4: 16 (the byte's high bits are ignored, C22:
   * set them to check that) */
  static uint32_t v6[64], v4[16];
  for (unsigned i = 0; i < 64; i++) v6[i] = i | 0xc0u;
  for (unsigned i = 0; i < 16; i++) v4[i] = i | 0x50u;
  runs += all_pairs(st, find_tform(VT_MMA_E3M2, 3), 1, 0, v6, 64, v6, 64, "e3m2 x e3m2");
  runs += all_pairs(st, find_tform(VT_MMA_E2M3, 3), 1, 0, v6, 64, v6, 64, "e2m3 x e2m3");
  runs += all_pairs(st, find_tform(VT_MMA_E2M1, 3), 1, 0, v4, 16, v4, 16, "e2m1 x e2m1");
  runs += all_pairs(st, find_tform(VT_MMA_E3M0, 3), 1, 0, v4, 16, v4, 16, "e3m0 x e3m0");
  printf("%u runs\n", runs);
}

/* binary16 values where rounding, overflow, subnormals and specials happen */
static const uint32_t F16_SPECIAL[48] = {
    0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x83ff, 0x0400, 0x8400, 0x3c00, 0xbc00, 0x3c01,
    0xbc01, 0x7bff, 0xfbff, 0x7c00, 0xfc00, 0x7e00, 0x7c01, 0xfe00, 0x5c00, 0xdc00, 0x5bff,
    0x3555, 0xb555, 0x4000, 0xc000, 0x3800, 0xb800, 0x1400, 0x9400, 0x0200, 0x8200, 0x77ff,
    0xf7ff, 0x6000, 0xe000, 0x1001, 0x9001, 0x3bff, 0xbbff, 0x4248, 0xc248, 0x2e66, 0xae66,
    0x7000, 0xf000, 0x0c00, 0x8c00};

TEST(special_f16_pairs_every_rounding_mode) {
  unsigned runs = 0;
  const tform *F = find_tform(VT_MMA_F16, 3);
  runs += all_pairs(st, F, 0, 1, F16_SPECIAL, 48, F16_SPECIAL, 48, "f16 specials, f16 C/D");
  runs += all_pairs(st, F, 0, 0, F16_SPECIAL, 48, F16_SPECIAL, 48, "f16 specials, f32 C/D");
  runs += all_pairs(st, F, 1, 0, F16_SPECIAL, 48, F16_SPECIAL, 48, "mma64 f16 specials");
  runs += all_pairs(st, find_tform(VT_MMA_F16, 2), 0, 1, F16_SPECIAL, 48, F16_SPECIAL, 48,
                    "m8n4k8 f16 specials");
  printf("%u runs\n", runs);
}

/* the value 1 and distinct non-zero finite values of a type */
static uint32_t one_of(vt_mma_type t) {
  switch (t) {
  case VT_MMA_F32: return 0x3f800000u;
  case VT_MMA_BF16: return 0x3f80u;
  case VT_MMA_F16: return 0x3c00u;
  case VT_MMA_E4M3: return 0x38u;
  case VT_MMA_E5M2: return 0x3cu;
  case VT_MMA_E3M2: return 0x0cu;
  case VT_MMA_E2M3: return 0x08u;
  case VT_MMA_E2M1: return 0x02u;
  case VT_MMA_E3M0: return 0x03u;
  default: return 1;
  }
}

/* value number i (i >= 0) of a type: distinct for as many i as the type
 * has finite non-zero values, then repeating */
static uint32_t distinct_of(const tform *F, unsigned i) {
  switch (F->type) {
  case VT_MMA_F32: return 0x3f800000u + (i << 8);
  case VT_MMA_BF16: return 0x3f80u + (i % 1024) + (i / 1024) * 0x400;
  case VT_MMA_F16: return 0x3c00u + i % 1024;
  case VT_MMA_E4M3: return 1 + i % 126 + (i / 126 % 2) * 0x80u;      /* 0x01..0x7e, signs */
  case VT_MMA_E5M2: return 1 + i % 123 + (i / 123 % 2) * 0x80u;      /* 0x01..0x7b */
  case VT_MMA_E3M2: case VT_MMA_E2M3: return 1 + i % 63;
  case VT_MMA_E2M1: case VT_MMA_E3M0: return 1 + i % 15;
  case VT_MMA_S8: return (uint8_t)(i - 128);
  case VT_MMA_U8: return i % 256;
  case VT_MMA_S4: case VT_MMA_U4: return i % 16;
  default: return (i * 2654435761u) >> 31; /* b1: a pseudo-random bit */
  }
}

/* A probes: B selects column n + sN of A into D[m][n]; B probes: A selects
 * row m + sM (mod K) of B into D[m][n]. The probed operand holds a distinct
 * value per element (as far as the type has values). */
static unsigned probes(check_state *st, const tform *F, int is64, int cd16, int al, int bl) {
  unsigned runs = 0;
  for (int op = 0; op < 2; op++) {
    int steps = op == 0 ? (F->k + F->n - 1) / F->n : (F->k + F->m - 1) / F->m;
    for (int sidx = 0; sidx < steps; sidx++) {
      static uint32_t A[1024], B[1024];
      memset(A, 0, sizeof A);
      memset(B, 0, sizeof B);
      unsigned cnt = 0;
      if (op == 0) {
        for (int m = 0; m < F->m; m++)
          for (int k = 0; k < F->k; k++) A[m * F->k + k] = distinct_of(F, cnt++);
        for (int n = 0; n < F->n; n++)
          if (n + sidx * F->n < F->k) B[(n + sidx * F->n) * F->n + n] = one_of(F->type);
      } else {
        for (int k = 0; k < F->k; k++)
          for (int n = 0; n < F->n; n++) B[k * F->n + n] = distinct_of(F, cnt++);
        for (int m = 0; m < F->m; m++) A[m * F->k + (m + sidx * F->m) % F->k] = one_of(F->type);
      }
      mma_sim s;
      memset(&s, 0, sizeof s);
      s.F = F;
      s.cd16 = cd16;
      s.is64 = is64;
      s.al = al;
      s.bl = bl;
      s.a_reg = 8;
      s.b_reg = 20;
      s.c_reg = 24;
      s.d_reg = is64 ? 48 : 24;
      s.rnd = is64 && tform_is_int(F) ? 1 : 0;
      scatter(&s, 0, A, s.A, F->na);
      scatter(&s, 1, B, s.B, F->nb);
      memset(s.C, 0, sizeof s.C);
      mma_sim_run(&s);
      char w[128];
      snprintf(w, sizeof w, "%s %s %s%s%s probe %d.%d", is64 ? "mma64" : "mma", F->sname, F->tname,
               cd16 ? " f16" : "", al || bl ? (al ? " AL" : " BL") : "", op, sidx);
      compare(st, &s, w);
      runs++;
    }
  }
  return runs;
}

TEST(layout_probes_with_distinct_values) {
  unsigned runs = 0;
  for (size_t i = 0; i < N_TFORMS; i++) {
    const tform *F = &TFORMS[i];
    for (int cd16 = 0; cd16 <= F->f16_cd; cd16++) {
      if (!F->mma64_only) runs += probes(st, F, 0, cd16, 0, 0);
      for (int lay = 0; lay < (tform_transposable(F) ? 4 : 1); lay++)
        runs += probes(st, F, 1, cd16, lay & 1, lay >> 1);
    }
  }
  printf("%u runs\n", runs);
}

static mma_sim basic(vt_mma_type t, int shape, int is64) {
  mma_sim s;
  memset(&s, 0, sizeof s);
  s.F = find_tform(t, shape);
  s.is64 = is64;
  s.a_reg = 8;
  s.b_reg = 20;
  s.c_reg = 24;
  s.d_reg = is64 ? 40 : 24;
  fill_regs(s.A, s.F->na, t, s.F->bits, 1);
  fill_regs(s.B, s.F->nb, t, s.F->bits, 1);
  fill_c(&s, 1);
  return s;
}

TEST(register_extension_and_overlap) {
  /* vd (C and D), vs1, vs2 above v31 through a regext (3.6.4) */
  mma_sim s = basic(VT_MMA_F16, 3, 0);
  s.a_reg = 40;
  s.b_reg = 98;
  s.c_reg = s.d_reg = 252;
  mma_sim_run(&s);
  compare(st, &s, "f16 m16n8k16 at v40/v98/v252");
  /* D overlapping A: the first C registers are also A (all sources are read
   * before D is written) */
  s = basic(VT_MMA_S8, 2, 0);
  s.a_reg = s.c_reg = s.d_reg = 24;
  mma_sim_run(&s);
  memcpy(s.A, s.C, sizeof s.A[0] * 2); /* what the A group held when mma ran */
  compare(st, &s, "s8 m16n16k16 with A = C/D");
  /* MMA64 with D overlapping B and C elsewhere */
  s = basic(VT_MMA_F32, 3, 1);
  s.rnd = 2;
  s.b_reg = 40;
  s.d_reg = 40;
  mma_sim_run(&s);
  compare(st, &s, "mma64 f32 with D = B");
}

TEST(mma64_equals_mma) {
  /* C20: with vrd = vrs3, AL = BL = 0 and RD = frm (rn/rz/rm/rp), MMA64
   * computes what MMA computes; saturation: RD 00 = S 1 */
  for (size_t i = 0; i < N_TFORMS; i++) {
    const tform *F = &TFORMS[i];
    if (F->mma64_only) continue;
    for (int k = 0; k < 4; k++) {
      mma_sim a = basic(F->type, F->shape, 0);
      a.rnd = k;
      a.sat = tform_is_int(F) && (k & 1);
      mma_sim b = a;
      b.is64 = 1;
      b.rnd = tform_is_int(F) ? !a.sat : k;
      mma_sim_run(&a);
      mma_sim_run(&b);
      CHECK(st, a.rc == VT_OK && b.rc == VT_OK);
      CHECK(st, memcmp(a.D, b.D, sizeof a.D[0] * (size_t)mma_sim_nc(&a)) == 0);
    }
  }
}

/* the run stops with an illegal instruction whose message ends with 'why' */
static void expect_illegal(check_state *st, mma_sim *s, const char *why) {
  mma_sim_run(s);
  CHECK_EQ_U32(st, s->rc, VT_ERR_ILLEGAL);
  size_t n = strlen(s->err.message), k = strlen(why);
  if (n < k || strcmp(s->err.message + n - k, why) != 0) {
    st->failed_checks++;
    fprintf(stderr, "message \"%s\", expected to end with \"%s\"\n", s->err.message, why);
  }
}

TEST(errors_in_the_order_of_the_spec) {
  mma_sim s = basic(VT_MMA_F16, 3, 0);
  s.threads = 16;
  expect_illegal(st, &s, "illegal instruction: mma needs a full 32-lane warp");
  s = basic(VT_MMA_F16, 3, 1);
  s.items = 31; /* lane 31 inactive */
  expect_illegal(st, &s, "illegal instruction: mma64 needs a full 32-lane warp");
  s = basic(VT_MMA_BF16, 0, 0);
  s.fs_off = 1;
  expect_illegal(st, &s, "illegal instruction: FP used while mstatus.FS is Off");
  s = basic(VT_MMA_S8, 0, 0);
  s.fs_off = 1; /* integer MMA needs no FP state */
  mma_sim_run(&s);
  compare(st, &s, "s8 with FS off");
  s = basic(VT_MMA_F32, 0, 0);
  s.rnd = 5;
  expect_illegal(st, &s, "illegal instruction: mma with a reserved rounding mode in frm");
  /* MMA64 does not read frm: it runs whatever frm holds (RD rounds) */
  s = basic(VT_MMA_F32, 0, 1);
  s.rnd = 3;
  mma_sim_run(&s);
  compare(st, &s, "mma64 rp");
  /* odd group start: vd = v25 for a two-register C/D group */
  s = basic(VT_MMA_F16, 0, 0);
  s.raw = enc_mma32(0, 0, 0, 20, 8, 0, 1, 25);
  s.raw_len = 4;
  expect_illegal(st, &s, "illegal instruction: C/D group of 2 registers starts at odd v25");
  /* a group passing v255: A (f32 m16n8k16, 8 registers) at v250 */
  s = basic(VT_MMA_F32, 3, 1);
  s.raw = enc_mma64(2, 3, 20, 250, 0, 0, 1, 24, 40, 0);
  s.raw_len = 8;
  expect_illegal(st, &s, "illegal instruction: A group v250..v257 passes v255");
  /* numt is checked before FS and the groups */
  s.threads = 8;
  s.fs_off = 1;
  expect_illegal(st, &s, "illegal instruction: mma64 needs a full 32-lane warp");
  /* a prefix before a 64-bit instruction (D21) */
  s = basic(VT_MMA_F16, 0, 1);
  s.prefix64 = 1;
  expect_illegal(st, &s, "illegal instruction: a prefix before a 64-bit instruction (isa2025.md D21)");
}

TEST(unsupported_mma64_fields) {
  uint64_t ok = enc_mma64(0, 3, 20, 8, 0, 0, 1, 24, 40, 0);
  static const struct {
    uint64_t bits;
    const char *why;
  } u[] = {{1ull << 17, "illegal instruction: unsupported: wg"},
           {1ull << 16, "illegal instruction: unsupported: a"},
           {1ull << 36, "illegal instruction: unsupported: SP"},
           {2ull << 36, "illegal instruction: unsupported: SP"},
           {1ull << 17 | 1ull << 16 | 3ull << 36, "illegal instruction: unsupported: wg"},
           /* reserved bits are checked first: ILLEGAL, not UNSUPPORTED */
           {1ull << 17 | 1ull << 15, "illegal instruction: mma64 reserved bits 15 or 11:7 set"},
           {1ull << 36 | 1ull << 9, "illegal instruction: mma64 reserved bits 15 or 11:7 set"},
           {1ull << 16 | 1ull << 59, "illegal instruction: reserved mma64 shape (bit 59 set)"}};
  for (size_t i = 0; i < sizeof u / sizeof u[0]; i++) {
    mma_sim s = basic(VT_MMA_F16, 3, 1);
    s.raw = ok | u[i].bits;
    s.raw_len = 8;
    expect_illegal(st, &s, u[i].why);
  }
  /* wg with an integer RD 10 (reserved, checked after the UNSUPPORTED fields) */
  mma_sim s = basic(VT_MMA_S8, 0, 1);
  s.raw = enc_mma64(5, 0, 20, 8, 0, 0, 1, 24, 40, 2) | 1ull << 17;
  s.raw_len = 8;
  expect_illegal(st, &s, "illegal instruction: unsupported: wg");
  s.raw &= ~(1ull << 17);
  expect_illegal(st, &s, "illegal instruction: reserved integer RD 2");
  /* the message names the location and prints the word as 16 hex digits */
  char want[64];
  snprintf(want, sizeof want, "(0x%016llx <unknown>)", (unsigned long long)s.raw);
  CHECK(st, strstr(s.err.message, "SM 0, workgroup 0, warp 0, pc 0x") != NULL);
  CHECK(st, strstr(s.err.message, want) != NULL);
}

/* A warp reused for the next workgroup starts with zero registers, also
 * those an MMA64 wrote through its 8-bit fields (D at v200, v201): two
 * workgroups on a device with one warp slot; each stores v201's lane 0,
 * then writes D = A x B + C with C = 1.0f (A = B = 0). */
TEST(reused_warp_after_mma64) {
  prog p = {0};
  li(&p, T0, 0x2000);
  E(&p, VT_INSN_CSRRS, ZERO, CSR_ADDR_MSTATUS, T0);
  vsetup(&p);
  E(&p, VT_INSN_CSRRS, T0, CSR_ADDR_WGID, ZERO);
  E(&p, VT_INSN_SLLI, T0, T0, 2);
  li(&p, T1, OUT_BASE);
  E(&p, VT_INSN_ADD, T0, T0, T1);
  emit(&p, 6u << 6 << 20 | 0x200bu); /* regext: vs2 + 6 << 5: v9 -> v201 */
  E(&p, VT_INSN_VMV_X_S, T2, 9);
  E(&p, VT_INSN_SW, T2, 0, T0);
  li(&p, T1, 0x3f800000u);
  E(&p, VT_INSN_VMV_V_X, 2, T1, 1);
  E(&p, VT_INSN_VMV_V_X, 3, T1, 1);
  uint64_t w = enc_mma64(0, 0, 0, 0, 0, 0, 1, 2, 200, 0); /* m8n8k8 f16 -> f32, D v200.. */
  emit(&p, (uint32_t)w);
  emit(&p, (uint32_t)(w >> 32));
  emit(&p, WORD_ENDPRG);
  vt_settings cfg;
  vt_settings_default(&cfg);
  cfg.sms = 1;
  cfg.warp_slots = 1;
  vt_device *dev = vt_device_new(&cfg);
  vt_launch l = simple_launch(32, 1);
  l.num_wg[0] = 3;
  vt_error err;
  CHECK(st, load_prog(dev, &p) == VT_OK);
  int rc = vt_device_run(dev, &l, NULL, &err);
  CHECK_EQ_U32(st, rc, VT_OK);
  if (rc) fprintf(stderr, "%s\n", err.message);
  for (unsigned g = 0; g < 3; g++) CHECK_EQ_U32(st, rd32(dev, OUT_BASE + 4 * g), 0);
  vt_device_free(dev);
}

RUN_TESTS(T(every_row_against_the_reference), T(reused_warp_after_mma64), T(every_fp8_fp6_fp4_pair),
          T(special_f16_pairs_every_rounding_mode), T(layout_probes_with_distinct_values),
          T(register_extension_and_overlap), T(mma64_equals_mma), T(errors_in_the_order_of_the_spec),
          T(unsupported_mma64_fields))
