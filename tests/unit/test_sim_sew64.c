/* Vector SEW = 64 on register pairs and widening at SEW = 32 (isa2025.md
 * 3.2.1-3.2.3), integer side: vsetvli e64 (VLMAX = numt * LMUL, vill for a
 * fractional LMUL), every legal integer instruction at SEW 64 on random and
 * corner values against the host's 64-bit (and 128-bit) arithmetic (.vx
 * scalars sign-extended, .vi immediates, 6-bit shift amounts, vxrm/vxsat),
 * inactive lanes, vmv.x.s/vmv.s.x, vzext/vsext.vf2, every widening table row
 * at SEW 32 (.wv reading two pairs), the instructions that stay illegal at
 * SEW 64 (checked against the list of 3.2.2 written out here), and odd
 * pair registers. Floating point at SEW 64: test_sim_sew64_mpfr.c. */
#include <string.h>

#include "lane_harness.h"

__extension__ typedef __int128 i128;
__extension__ typedef unsigned __int128 u128;

/* the mnemonic without its operand-form suffix: "vadd.vx" -> "vadd" */
static void base_name(vt_insn_id id, char *out, size_t n) {
  snprintf(out, n, "%s", vt_isa_insn(id)->mnemonic);
  char *dot = strchr(out, '.');
  if (dot && strncmp(out, "vmv", 3) != 0) *dot = 0;
}

/* RVV 1.0 fixed-point rounding increment of v >> d under vxrm */
static u128 rinc(unsigned xrm, u128 v, unsigned d) {
  if (d == 0) return 0;
  u128 lsb = (v >> d) & 1, half = (v >> (d - 1)) & 1;
  u128 rest = d >= 2 ? (v & (((u128)1 << (d - 1)) - 1)) != 0 : 0;
  switch (xrm) {
  case 0: return half;
  case 1: return half & (rest | lsb);
  case 2: return 0;
  default: return (lsb ^ 1) & (half | rest);
  }
}

static const int64_t MIN64 = INT64_MIN, MAX64 = INT64_MAX;

/* host model of one 64-bit element operation (A = vs2, B = vs1/scalar, D = vd) */
static uint64_t ref(const char *op, uint64_t a, uint64_t b, uint64_t d, unsigned c,
                    unsigned xrm, bool *sat) {
  int64_t sa = (int64_t)a, sb = (int64_t)b;
  unsigned sh = (unsigned)(b & 63);
#define IS(s) (strcmp(op, s) == 0)
  if (IS("vadd")) return a + b;
  if (IS("vsub")) return a - b;
  if (IS("vrsub")) return b - a;
  if (IS("vminu")) return a < b ? a : b;
  if (IS("vmaxu")) return a > b ? a : b;
  if (IS("vmin")) return sa < sb ? a : b;
  if (IS("vmax")) return sa > sb ? a : b;
  if (IS("vand")) return a & b;
  if (IS("vor")) return a | b;
  if (IS("vxor")) return a ^ b;
  if (IS("vsll")) return a << sh;
  if (IS("vsrl")) return a >> sh;
  if (IS("vsra")) return (uint64_t)(sa >> sh);
  if (IS("vmseq")) return a == b;
  if (IS("vmsne")) return a != b;
  if (IS("vmsltu")) return a < b;
  if (IS("vmslt")) return sa < sb;
  if (IS("vmsleu")) return a <= b;
  if (IS("vmsle")) return sa <= sb;
  if (IS("vmsgtu")) return a > b;
  if (IS("vmsgt")) return sa > sb;
  if (IS("vmul")) return a * b;
  if (IS("vmulh")) return (uint64_t)(((i128)sa * sb) >> 64);
  if (IS("vmulhu")) return (uint64_t)(((u128)a * b) >> 64);
  if (IS("vmulhsu")) return (uint64_t)(((i128)sa * (i128)(u128)b) >> 64);
  if (IS("vdivu")) return b ? a / b : ~0ull;
  if (IS("vremu")) return b ? a % b : a;
  if (IS("vdiv")) return !b ? ~0ull : (sa == MIN64 && sb == -1) ? a : (uint64_t)(sa / sb);
  if (IS("vrem")) return !b ? a : (sa == MIN64 && sb == -1) ? 0 : (uint64_t)(sa % sb);
  if (IS("vmacc")) return d + b * a;
  if (IS("vnmsac")) return d - b * a;
  if (IS("vmadd")) return b * d + a;
  if (IS("vnmsub")) return a - b * d;
  if (IS("vadc")) return a + b + c;
  if (IS("vsbc")) return a - b - c;
  if (IS("vmerge")) return c ? b : a;
  if (IS("vmv.v")) return b;
  if (IS("vsaddu")) {
    u128 s = (u128)a + b;
    if (s >> 64) { *sat = true; return ~0ull; }
    return (uint64_t)s;
  }
  if (IS("vssubu")) {
    if (b > a) { *sat = true; return 0; }
    return a - b;
  }
  if (IS("vsadd") || IS("vssub")) {
    i128 s = IS("vsadd") ? (i128)sa + sb : (i128)sa - sb;
    if (s > MAX64) { *sat = true; return (uint64_t)MAX64; }
    if (s < MIN64) { *sat = true; return (uint64_t)MIN64; }
    return (uint64_t)(int64_t)s;
  }
  if (IS("vaaddu") || IS("vasubu")) {
    u128 s = IS("vaaddu") ? (u128)a + b : (u128)a - b; /* 65 bits, two's complement */
    s &= ((u128)1 << 65) - 1;
    return (uint64_t)((s >> 1) + rinc(xrm, s, 1));
  }
  if (IS("vaadd") || IS("vasub")) {
    i128 s = IS("vaadd") ? (i128)sa + sb : (i128)sa - sb;
    return (uint64_t)(int64_t)((s >> 1) + (i128)rinc(xrm, (u128)s, 1));
  }
  if (IS("vsmul")) {
    if (a == (uint64_t)MIN64 && b == (uint64_t)MIN64) { *sat = true; return (uint64_t)MAX64; }
    i128 p = (i128)sa * sb;
    return (uint64_t)(int64_t)((p >> 63) + (i128)rinc(xrm, (u128)p, 63));
  }
  if (IS("vssrl")) return (uint64_t)((a >> sh) + (uint64_t)rinc(xrm, a, sh));
  if (IS("vssra")) return (uint64_t)((sa >> sh) + (int64_t)rinc(xrm, (u128)(i128)sa, sh));
#undef IS
  fprintf(stderr, "no model for %s\n", op);
  abort();
}

/* v8/v9 = A, v10/v11 = B, v12/v13 = D (and the result), v0 = carries */
static const uint64_t corners[] = {0, 1, ~0ull, 0x8000000000000000ull, 0x7fffffffffffffffull,
                                   0x00000000ffffffffull, 0x0000000100000000ull, 63, 64, 33};
#define NC (sizeof corners / sizeof corners[0])

static void fill(lrun *t, uint64_t *seed) {
  for (unsigned i = 0; i < 32; i++) {
    uint64_t a = i < NC ? corners[i] : lr_rand(seed), b = i < NC ? corners[(i * 7 + 3) % NC] : lr_rand(seed);
    if (i >= NC && (i & 3) == 1) b >>= 40; /* small divisors and shift amounts */
    lr_set64(t, 8, i, a);
    lr_set64(t, 10, i, b);
    lr_set64(t, 12, i, lr_rand(seed));
  }
}

static const vt_insn_id vv_ops[] = {
    VT_INSN_VADD_VV, VT_INSN_VSUB_VV, VT_INSN_VMINU_VV, VT_INSN_VMIN_VV, VT_INSN_VMAXU_VV,
    VT_INSN_VMAX_VV, VT_INSN_VAND_VV, VT_INSN_VOR_VV, VT_INSN_VXOR_VV, VT_INSN_VSLL_VV,
    VT_INSN_VSRL_VV, VT_INSN_VSRA_VV, VT_INSN_VMSEQ_VV, VT_INSN_VMSNE_VV, VT_INSN_VMSLTU_VV,
    VT_INSN_VMSLT_VV, VT_INSN_VMSLEU_VV, VT_INSN_VMSLE_VV, VT_INSN_VMUL_VV, VT_INSN_VMULH_VV,
    VT_INSN_VMULHU_VV, VT_INSN_VMULHSU_VV, VT_INSN_VDIVU_VV, VT_INSN_VDIV_VV, VT_INSN_VREMU_VV,
    VT_INSN_VREM_VV, VT_INSN_VMACC_VV, VT_INSN_VNMSAC_VV, VT_INSN_VMADD_VV, VT_INSN_VNMSUB_VV,
    VT_INSN_VSADDU_VV, VT_INSN_VSADD_VV, VT_INSN_VSSUBU_VV, VT_INSN_VSSUB_VV, VT_INSN_VAADDU_VV,
    VT_INSN_VAADD_VV, VT_INSN_VASUBU_VV, VT_INSN_VASUB_VV, VT_INSN_VSMUL_VV, VT_INSN_VSSRL_VV,
    VT_INSN_VSSRA_VV,
};

/* every .vv operation, all four vxrm modes for the fixed-point ones */
TEST(vv_ops_vs_host) {
  uint64_t seed = 0x243f6a8885a308d3ull;
  for (size_t o = 0; o < sizeof vv_ops / sizeof vv_ops[0]; o++) {
    char op[32];
    base_name(vv_ops[o], op, sizeof op);
    unsigned nrm = 4; /* every vxrm mode (only fixed point depends on it) */
    for (unsigned xrm = 0; xrm < nrm; xrm++) {
      lrun t = {0};
      t.vtype = E64;
      t.vxrm = xrm;
      fill(&t, &seed);
      /* the multiply-adds read vd: vd v12 = D; vmacc vd, vs1, vs2 syntax */
      const vt_insn_desc *d = vt_isa_insn(vv_ops[o]);
      bool madd = d->flags & VT_F_RVD;
      lr_op(&t, madd ? enc(vv_ops[o], 12, 10, 8, 1) : enc(vv_ops[o], 12, 8, 10, 1));
      lr_run(&t);
      LR_OK(st, &t);
      bool sat_any = false;
      for (unsigned i = 0; i < 32 && t.rc == VT_OK; i++) {
        bool sat = false;
        uint64_t a = (uint64_t)t.v[1][i] << 32 | t.v[0][i], b = (uint64_t)t.v[3][i] << 32 | t.v[2][i];
        uint64_t dd = (uint64_t)t.v[5][i] << 32 | t.v[4][i];
        uint64_t want = ref(op, a, b, dd, 0, xrm, &sat), got = lr_get64(&t, 12, i);
        sat_any |= sat;
        if (got != want) {
          st->failed_checks++;
          fprintf(stderr, "%s vxrm %u lane %u: a 0x%016llx b 0x%016llx d 0x%016llx = 0x%016llx, expected 0x%016llx\n",
                  d->mnemonic, xrm, i, (unsigned long long)a, (unsigned long long)b,
                  (unsigned long long)dd, (unsigned long long)got, (unsigned long long)want);
        }
      }
      if (t.rc == VT_OK) CHECK_EQ_U32(st, t.vxsat, sat_any);
    }
  }
}

/* .vx: the scalar is sign-extended to 64 bits (also for unsigned
 * operations); .vi: simm5 sign-extended, shift amounts unsigned (uimm5) */
TEST(vx_vi_scalars) {
  static const struct { vt_insn_id id; bool imm; } F[] = {
      {VT_INSN_VADD_VX, false}, {VT_INSN_VRSUB_VX, false}, {VT_INSN_VMINU_VX, false},
      {VT_INSN_VMAXU_VX, false}, {VT_INSN_VMSGTU_VX, false}, {VT_INSN_VMSGT_VX, false},
      {VT_INSN_VSRA_VX, false}, {VT_INSN_VMULHSU_VX, false}, {VT_INSN_VDIV_VX, false},
      {VT_INSN_VADD_VI, true}, {VT_INSN_VRSUB_VI, true}, {VT_INSN_VMSLEU_VI, true},
      {VT_INSN_VSLL_VI, true}, {VT_INSN_VSRL_VI, true}, {VT_INSN_VSRA_VI, true},
      {VT_INSN_VSSRL_VI, true}, {VT_INSN_VAND_VI, true},
  };
  static const uint32_t scal[] = {0xfffffffbu, 7, 0x80000000u};
  static const int imms[] = {-5, 15, -16, 31, 0};
  uint64_t seed = 77;
  for (unsigned f = 0; f < sizeof F / sizeof F[0]; f++)
    for (unsigned k = 0; k < (F[f].imm ? 5u : 3u); k++) {
      const vt_insn_desc *d = vt_isa_insn(F[f].id);
      char op[32];
      base_name(F[f].id, op, sizeof op);
      bool uimm = false;
      for (unsigned j = 0; j < d->nops; j++) uimm |= d->ops[j] == VT_OP_UIMM5;
      int imm = imms[k];
      if (uimm) imm &= 31;
      else if (imm > 15) imm = 9;
      lrun t = {0};
      t.vtype = E64;
      fill(&t, &seed);
      t.x[0] = scal[k % 3];
      lr_op(&t, F[f].imm ? enc(F[f].id, 12, 8, imm, 1) : enc(F[f].id, 12, 8, A0, 1));
      lr_run(&t);
      LR_OK(st, &t);
      uint64_t b = F[f].imm ? (uimm ? (uint64_t)(unsigned)imm : (uint64_t)(int64_t)imm)
                            : (uint64_t)(int64_t)(int32_t)t.x[0];
      for (unsigned i = 0; i < 32 && t.rc == VT_OK; i++) {
        bool sat = false;
        uint64_t a = (uint64_t)t.v[1][i] << 32 | t.v[0][i];
        uint64_t want = ref(op, a, b, 0, 0, 0, &sat), got = lr_get64(&t, 12, i);
        if (got != want) {
          st->failed_checks++;
          fprintf(stderr, "%s %d lane %u: 0x%016llx, expected 0x%016llx\n", d->mnemonic,
                  F[f].imm ? imm : (int)t.x[0], i, (unsigned long long)got, (unsigned long long)want);
        }
      }
    }
}

/* vadc/vsbc/vmerge read v0.mask; vmv.v.x / vmv.s.x sign-extend; vid; the
 * moves to x; vzext/vsext.vf2; inactive lanes (vl = 20, masked lane) */
TEST(carries_moves_and_lanes) {
  uint64_t seed = 5;
  static const vt_insn_id c_ops[] = {VT_INSN_VADC_VVM, VT_INSN_VSBC_VVM, VT_INSN_VMERGE_VVM};
  for (unsigned k = 0; k < 3; k++) {
    lrun t = {0};
    t.vtype = E64;
    fill(&t, &seed);
    t.x[0] = 0xa5c3f00fu; /* v0.mask = bit i of v0 lane 0 */
    lr_op(&t, enc(VT_INSN_VMV_S_X, 0, A0));
    lr_op(&t, enc(c_ops[k], 12, 8, 10));
    lr_run(&t);
    LR_OK(st, &t);
    char op[32];
    base_name(c_ops[k], op, sizeof op);
    for (unsigned i = 0; i < 32 && t.rc == VT_OK; i++) {
      bool sat;
      uint64_t a = (uint64_t)t.v[1][i] << 32 | t.v[0][i], b = (uint64_t)t.v[3][i] << 32 | t.v[2][i];
      uint64_t want = ref(op, a, b, 0, (0xa5c3f00fu >> i) & 1, 0, &sat);
      if (lr_get64(&t, 12, i) != want) {
        st->failed_checks++;
        fprintf(stderr, "%s lane %u wrong\n", op, i);
      }
    }
  }
  /* moves: vmv.v.x sext, vid, vmv.x.s (highest active lane, low word),
   * vzext/vsext.vf2 from a single 32-bit register, vl = 20 */
  lrun t = {0};
  t.vtype = E64;
  t.avl = 20;
  fill(&t, &seed);
  for (unsigned i = 0; i < 32; i++) t.v[7][i] = 0x80000000u + 3 * i; /* v15: vf2 source */
  t.x[0] = 0x80000001u;
  lr_op(&t, enc(VT_INSN_VMV_V_X, 8, A0));
  lr_op(&t, enc(VT_INSN_VID_V, 10, 1));
  lr_op(&t, enc(VT_INSN_VMV_X_S, A1, 10));
  lr_op(&t, enc(VT_INSN_VZEXT_VF2, 12, 15, 1));
  lr_op(&t, enc(VT_INSN_VSEXT_VF2, 14, 15, 1));
  lr_run(&t);
  LR_OK(st, &t);
  for (unsigned i = 0; i < 32 && t.rc == VT_OK; i++) {
    bool act = i < 20;
    uint64_t old8 = (uint64_t)t.v[1][i] << 32 | t.v[0][i];
    CHECK(st, lr_get64(&t, 8, i) == (act ? 0xffffffff80000001ull : old8));
    CHECK(st, lr_get64(&t, 10, i) == (act ? i : ((uint64_t)t.v[3][i] << 32 | t.v[2][i])));
    if (act) {
      CHECK(st, lr_get64(&t, 12, i) == 0x80000000ull + 3 * i);
      CHECK(st, lr_get64(&t, 14, i) == (uint64_t)(int64_t)(int32_t)(0x80000000u + 3 * i));
    }
  }
  CHECK_EQ_U32(st, t.xo[1], 19); /* vid of the highest active lane */
}

/* vsetvli e64: VLMAX = numt * LMUL (C4), fractional LMUL sets vill (C5) */
TEST(vsetvli_e64) {
  static const struct { uint32_t vtype; unsigned numt, avl, vl; bool vill; } V[] = {
      {0xd8, 8, 100, 8, false},  {0xd9, 8, 100, 16, false}, {0xda, 4, 100, 16, false},
      {0xdb, 32, 1000, 256, false}, {0xd8, 32, 5, 5, false},  {0xdf, 8, 4, 0, true},
      {0xde, 8, 4, 0, true},     {0xdd, 8, 4, 0, true},     {0xd0, 8, 100, 8, false},
  };
  for (unsigned k = 0; k < sizeof V / sizeof V[0]; k++) {
    lrun t = {0};
    t.numt = V[k].numt;
    t.vtype = E32M1;
    t.x[0] = V[k].avl;
    lr_op(&t, enc(VT_INSN_VSETVLI, A1, A0, (int)V[k].vtype));
    lr_op(&t, enc(VT_INSN_CSRRS, A2, 0xc21, ZERO)); /* vtype */
    lr_op(&t, enc(VT_INSN_CSRRS, A3, 0xc20, ZERO)); /* vl */
    lr_run(&t);
    LR_OK(st, &t);
    CHECK_EQ_U32(st, t.xo[1], V[k].vl);
    CHECK_EQ_U32(st, t.xo[2], V[k].vill ? 0x80000000u : V[k].vtype);
    CHECK_EQ_U32(st, t.xo[3], V[k].vl);
  }
}

/* ---- widening at SEW 32: 64-bit results in pairs (3.2.3) ---- */

typedef struct wrow {
  vt_insn_id id;
  char form; /* v: .vv  x: .vx  w: .wv  y: .wx */
} wrow;

static uint64_t wref(const char *op, char form, uint32_t a32, uint32_t b32, uint64_t w2,
                     uint64_t w1, uint64_t d) {
  uint64_t za = a32, zb = b32, sa = (uint64_t)(int64_t)(int32_t)a32, sb = (uint64_t)(int64_t)(int32_t)b32;
#define IS(s) (strcmp(op, s) == 0)
  if (form == 'w') { /* W(vs2) op W(vs1) */
    return IS("vwaddu") || IS("vwadd") ? w2 + w1 : w2 - w1;
  }
  if (form == 'y') {
    uint64_t e = IS("vwaddu") || IS("vwsubu") ? zb : sb;
    return IS("vwaddu") || IS("vwadd") ? w2 + e : w2 - e;
  }
  if (IS("vwaddu")) return za + zb;
  if (IS("vwadd")) return sa + sb;
  if (IS("vwsubu")) return za - zb;
  if (IS("vwsub")) return sa - sb;
  if (IS("vwmulu")) return za * zb;
  if (IS("vwmul")) return sa * sb;
  if (IS("vwmulsu")) return sa * zb;
  if (IS("vwmaccu")) return d + zb * za;
  if (IS("vwmacc")) return d + sb * sa;
  if (IS("vwmaccsu")) return d + sb * za;
  if (IS("vwmaccus")) return d + zb * sa;
#undef IS
  abort();
}

TEST(widening_integer_sew32) {
  static const wrow W[] = {
      {VT_INSN_VWADDU_VV, 'v'}, {VT_INSN_VWADDU_VX, 'x'}, {VT_INSN_VWADD_VV, 'v'},
      {VT_INSN_VWADD_VX, 'x'},  {VT_INSN_VWSUBU_VV, 'v'}, {VT_INSN_VWSUBU_VX, 'x'},
      {VT_INSN_VWSUB_VV, 'v'},  {VT_INSN_VWSUB_VX, 'x'},  {VT_INSN_VWADDU_W_WV, 'w'},
      {VT_INSN_VWADD_W_WV, 'w'},  {VT_INSN_VWSUBU_W_WV, 'w'}, {VT_INSN_VWSUB_W_WV, 'w'},
      {VT_INSN_VWADDU_W_WX, 'y'}, {VT_INSN_VWADD_W_WX, 'y'},  {VT_INSN_VWSUBU_W_WX, 'y'},
      {VT_INSN_VWSUB_W_WX, 'y'},  {VT_INSN_VWMULU_VV, 'v'}, {VT_INSN_VWMULU_VX, 'x'},
      {VT_INSN_VWMUL_VV, 'v'},  {VT_INSN_VWMUL_VX, 'x'},  {VT_INSN_VWMULSU_VV, 'v'},
      {VT_INSN_VWMULSU_VX, 'x'}, {VT_INSN_VWMACCU_VV, 'v'}, {VT_INSN_VWMACCU_VX, 'x'},
      {VT_INSN_VWMACC_VV, 'v'}, {VT_INSN_VWMACC_VX, 'x'}, {VT_INSN_VWMACCSU_VV, 'v'},
      {VT_INSN_VWMACCSU_VX, 'x'}, {VT_INSN_VWMACCUS_VX, 'x'},
  };
  uint64_t seed = 99;
  for (unsigned k = 0; k < sizeof W / sizeof W[0]; k++) {
    lrun t = {0};
    t.vtype = E32M1;
    fill(&t, &seed);
    t.x[0] = k & 1 ? 0xfffffff0u : 0x7ffffff3u;
    const vt_insn_desc *d = vt_isa_insn(W[k].id);
    bool madd = d->flags & VT_F_RVD;
    uint32_t word;
    /* narrow sources v9 (vs2) and v11 (vs1); wide v8 and v10; vd v12 */
    switch (W[k].form) {
    case 'v': word = madd ? enc(W[k].id, 12, 11, 9, 1) : enc(W[k].id, 12, 9, 11, 1); break;
    case 'x': word = madd ? enc(W[k].id, 12, A0, 9, 1) : enc(W[k].id, 12, 9, A0, 1); break;
    case 'w': word = enc(W[k].id, 12, 8, 10, 1); break;
    default: word = enc(W[k].id, 12, 8, A0, 1); break;
    }
    lr_op(&t, word);
    lr_run(&t);
    LR_OK(st, &t);
    char op[32];
    base_name(W[k].id, op, sizeof op);
    for (unsigned i = 0; i < 32 && t.rc == VT_OK; i++) {
      uint32_t a32 = t.v[1][i], b32 = W[k].form == 'v' ? t.v[3][i] : t.x[0];
      uint64_t w2 = (uint64_t)t.v[1][i] << 32 | t.v[0][i], w1 = (uint64_t)t.v[3][i] << 32 | t.v[2][i];
      uint64_t dd = (uint64_t)t.v[5][i] << 32 | t.v[4][i];
      uint64_t want = wref(op, W[k].form, a32, b32, w2, w1, dd), got = lr_get64(&t, 12, i);
      if (got != want) {
        st->failed_checks++;
        fprintf(stderr, "%s lane %u: 0x%016llx, expected 0x%016llx\n", d->mnemonic, i,
                (unsigned long long)got, (unsigned long long)want);
      }
    }
  }
}

/* ---- legality at SEW 64 (3.2.2) and pairs ---- */

/* the list of 3.2.2, as the spec writes it */
static const char *const legal64[] = {
    "vadd", "vsub", "vrsub", "vminu", "vmin", "vmaxu", "vmax", "vand", "vor", "vxor", "vsll",
    "vsrl", "vsra", "vmseq", "vmsne", "vmsltu", "vmslt", "vmsleu", "vmsle", "vmsgtu", "vmsgt",
    "vmul", "vmulh", "vmulhu", "vmulhsu", "vdivu", "vdiv", "vremu", "vrem", "vmacc", "vnmsac",
    "vmadd", "vnmsub", "vadc", "vsbc", "vmerge", "vmv.v.v", "vmv.v.x", "vmv.v.i", "vsaddu",
    "vsadd", "vssubu", "vssub", "vaaddu", "vaadd", "vasubu", "vasub", "vsmul", "vssrl", "vssra",
    "vid", "vzext.vf2", "vsext.vf2", "vmv.x.s", "vmv.s.x", "vmv1r.v", "vmv2r.v", "vmv4r.v",
    "vmv8r.v",
    "vfadd", "vfsub", "vfrsub", "vfmul", "vfdiv", "vfrdiv", "vfmin", "vfmax", "vfsgnj",
    "vfsgnjn", "vfsgnjx", "vfmacc", "vfnmacc", "vfmsac", "vfnmsac", "vfmadd", "vfnmadd",
    "vfmsub", "vfnmsub", "vfsqrt", "vfrsqrt7", "vfrec7", "vfclass", "vmfeq", "vmfne", "vmflt",
    "vmfle", "vmfgt", "vmfge", "vfcvt.xu.f.v", "vfcvt.x.f.v", "vfcvt.f.xu.v", "vfcvt.f.x.v",
    "vfcvt.rtz.xu.f.v", "vfcvt.rtz.x.f.v", "vfmv.v.f", "vfmerge", "vfmv.f.s", "vfmv.s.f",
};

static bool listed64(const char *mn) {
  for (size_t k = 0; k < sizeof legal64 / sizeof legal64[0]; k++) {
    size_t n = strlen(legal64[k]);
    if (!strncmp(mn, legal64[k], n) && (mn[n] == 0 || (mn[n] == '.' && !strchr(legal64[k], '.'))))
      return true;
  }
  return false;
}

/* every RVV row of the table at SEW 64 with even registers: legal exactly
 * when 3.2.2 lists it (vfexp and vftta too, which are Ventus rows; the
 * tensor and copy instructions do not depend on vtype, 3.6-3.9) */
TEST(legal_set_at_sew64) {
  unsigned legal = 0, illegal = 0;
  for (unsigned id = 0; id < VT_INSN_COUNT; id++) {
    const vt_insn_desc *d = vt_isa_insn((vt_insn_id)id);
    bool lane_family = d->ew == VT_EW_LANE && d->sem != VT_SEM_FEXP && d->sem != VT_SEM_TTA;
    if (!(d->flags & VT_F_VEC) || lane_family || d->ew == VT_EW_LANESEL || d->length == 8 ||
        d->sem == VT_SEM_MMA || d->exec_class == VT_EX_DMA)
      continue;
    uint32_t w = (uint32_t)d->match;
    unsigned vr = 8;
    for (unsigned k = 0; k < d->nops; k++) {
      const vt_operand_desc *od = vt_isa_operand((vt_operand_id)d->ops[k]);
      int v = od->kind == VT_OPK_VREG ? (int)(vr += 2) : od->kind == VT_OPK_XREG ? A2
            : od->kind == VT_OPK_VM ? 1 : 0;
      w = vt_operand_set((vt_operand_id)d->ops[k], w, v);
    }
    lrun t = {0};
    t.vtype = E64;
    t.x[2] = OUT_BASE;
    lr_op(&t, w);
    lr_run(&t);
    bool want = listed64(d->mnemonic);
    bool is_illegal64 = t.rc == VT_ERR_ILLEGAL && strstr(t.err.message, "SEW = 64");
    if (want == is_illegal64) {
      st->failed_checks++;
      fprintf(stderr, "%s at SEW 64: %s (%s)\n", d->mnemonic, want ? "should be legal" : "should be illegal",
              t.rc ? t.err.message : "ran");
    }
    want ? legal++ : illegal++;
  }
  CHECK(st, legal >= 150 && illegal >= 100);
}

/* odd registers where pairs are required (3.2.2, 3.2.3) */
TEST(odd_pairs) {
  static const struct { uint32_t vtype; uint32_t word; } O[] = {
      {E64, 0}, {E64, 1}, {E64, 2}, {E32M1, 3}, {E32M1, 4}, {E64, 5}, {E64, 6},
  };
  for (unsigned k = 0; k < sizeof O / sizeof O[0]; k++) {
    uint32_t w;
    switch (O[k].word) {
    case 0: w = enc(VT_INSN_VADD_VV, 13, 8, 10, 1); break;   /* vd odd */
    case 1: w = enc(VT_INSN_VADD_VV, 12, 9, 10, 1); break;   /* vs2 odd */
    case 2: w = enc(VT_INSN_VADD_VV, 12, 8, 11, 1); break;   /* vs1 odd */
    case 3: w = enc(VT_INSN_VWADD_VV, 13, 9, 11, 1); break;  /* widening vd odd */
    case 4: w = enc(VT_INSN_VWADD_W_WV, 12, 8, 11, 1); break;  /* .wv vs1 odd */
    case 5: w = enc(VT_INSN_VFMV_F_S, A1, 8); break;         /* scalar pair odd */
    default: w = enc(VT_INSN_VMV_X_S, A0, 9); break;         /* vs2 odd */
    }
    lrun t = {0};
    t.vtype = O[k].vtype;
    lr_op(&t, w);
    lr_run(&t);
    LR_ILLEGAL(st, &t, "odd register where a pair is required");
  }
  /* the single-register sources of vsext.vf2 and of narrow widening operands may be odd */
  lrun t = {0};
  t.vtype = E64;
  lr_op(&t, enc(VT_INSN_VSEXT_VF2, 12, 9, 1));
  lr_run(&t);
  LR_OK(st, &t);
}

RUN_TESTS(T(vv_ops_vs_host), T(vx_vi_scalars), T(carries_moves_and_lanes), T(vsetvli_e64),
          T(widening_integer_sew32), T(legal_set_at_sew64), T(odd_pairs))
