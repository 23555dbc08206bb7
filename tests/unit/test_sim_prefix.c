/* PREFIX / PREFIXI on the simulator (isa2025.md 3.5.1, 3.5.2, 3.5.4): NEG
 * and ABS on every eligible instruction and operand (scalar integer with and
 * without the pair prefix, Zfinx binary32, vector integer at SEW 8/32/64,
 * vector FP at SEW 32/64, FP widening), INT_MIN, -0 and NaN operands, the
 * examples of 3.5.1, ILLEGAL for ineligible instructions and operands,
 * prefix chains (old + old keeps v2.02, any chain with a new form stops at
 * the second prefix), reserved bits, and a prefix consumed by the next
 * instruction whatever it is. Expected values: host integer and IEEE
 * arithmetic (C float/double under round-to-nearest, which is RISC-V RNE for
 * non-NaN results) on operands modified here. */
#include <math.h>

#include "lane_harness.h"
#include "xrun.h"

/* prefix/prefixi words; without modifiers they are regext/regexti */
static uint32_t pfx(int ext, int pair, int neg, int abs) {
  if (!pair && !neg && !abs) return enc(VT_INSN_REGEXT, ext);
  return enc(VT_INSN_PREFIX, ext, pair, neg, abs);
}
static uint32_t pfxi(int ext, int neg, int abs) {
  if (!neg && !abs) return enc(VT_INSN_REGEXTI, ext);
  return enc(VT_INSN_PREFIXI, ext, neg, abs);
}

static uint64_t mask_w(unsigned w) { return w == 64 ? ~0ull : (1ull << w) - 1; }
static uint64_t imod(uint64_t x, unsigned w, unsigned n, unsigned a) {
  x &= mask_w(w);
  if (a && (x >> (w - 1)) & 1) x = (0 - x) & mask_w(w);
  if (n) x = (0 - x) & mask_w(w);
  return x;
}
static uint32_t f2u(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float u2f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint64_t d2u(double f) { uint64_t u; memcpy(&u, &f, 8); return u; }
static double u2d(uint64_t u) { double f; memcpy(&f, &u, 8); return f; }

/* ---- scalar integer ---- */

TEST(scalar_integer) {
  static const uint32_t vals[] = {0x80000000u, 0xfffffff9u, 5};
  static const vt_insn_id ids[] = {VT_INSN_ADD, VT_INSN_SUB, VT_INSN_MUL, VT_INSN_ADDI};
  for (unsigned o = 0; o < 4; o++)
    for (unsigned m = 0; m < 16; m++)
      for (unsigned v = 0; v < 3; v++) {
        unsigned neg = m & 3, abs = m >> 2;
        uint32_t a = vals[v], b = vals[(v + 1) % 3];
        int imm = -2048;
        xrun t = {0};
        t.x[12] = a, t.x[14] = b;
        xr_op(&t, pfx(0, 0, (int)neg, (int)abs));
        xr_op(&t, ids[o] == VT_INSN_ADDI ? enc(ids[o], A0, A2, imm) : enc(ids[o], A0, A2, A4));
        xr_run(&t);
        XR_OK(st, &t);
        if (ids[o] == VT_INSN_ADDI) b = (uint32_t)imm;
        uint32_t x = (uint32_t)imod(a, 32, neg & 1, abs & 1), y = (uint32_t)imod(b, 32, neg >> 1, abs >> 1);
        uint32_t want = o == 1 ? x - y : o == 2 ? x * y : x + y;
        CHECK_EQ_U32(st, t.out[10], want);
      }
  /* with the pair prefix: 64-bit operands, ABS of INT64_MIN is itself */
  static const uint64_t v64[] = {0x8000000000000000ull, 0xfffffffd00000000ull, 0x0000000700000001ull};
  for (unsigned o = 0; o < 3; o++)
    for (unsigned m = 0; m < 16; m++) {
      unsigned neg = m & 3, abs = m >> 2;
      xrun t = {0};
      xr_set64(&t, 12, v64[o]);
      xr_set64(&t, 14, v64[(o + 1) % 3]);
      xr_op(&t, pfx(0, 1, (int)neg, (int)abs));
      xr_op(&t, enc(ids[o], A0, A2, A4));
      xr_run(&t);
      XR_OK(st, &t);
      uint64_t x = imod(v64[o], 64, neg & 1, abs & 1), y = imod(v64[(o + 1) % 3], 64, neg >> 1, abs >> 1);
      XR_EQ64(st, &t, 10, o == 1 ? x - y : o == 2 ? x * y : x + y);
    }
}

/* ---- scalar binary32 (Zfinx) ---- */

static uint32_t fmods(uint32_t x, unsigned n, unsigned a) {
  if (a) x &= 0x7fffffffu;
  if (n) x ^= 0x80000000u;
  return x;
}

TEST(scalar_fp) {
  static const uint32_t vals[] = {0x3fc00000u /* 1.5 */, 0xc0100000u /* -2.25 */, 0x40400000u /* 3 */};
  static const struct { vt_insn_id id; int n; } F[] = {
      {VT_INSN_FADD_S, 2}, {VT_INSN_FSUB_S, 2}, {VT_INSN_FMUL_S, 2}, {VT_INSN_FDIV_S, 2},
      {VT_INSN_FMIN_S, 2}, {VT_INSN_FMAX_S, 2}, {VT_INSN_FEQ_S, 2},  {VT_INSN_FLT_S, 2},
      {VT_INSN_FLE_S, 2},  {VT_INSN_FSQRT_S, 1}, {VT_INSN_FMADD_S, 3}, {VT_INSN_FMSUB_S, 3},
      {VT_INSN_FNMSUB_S, 3}, {VT_INSN_FNMADD_S, 3},
  };
  for (unsigned o = 0; o < sizeof F / sizeof F[0]; o++)
    for (unsigned m = 0; m < 64; m++) {
      unsigned bits = F[o].n == 1 ? 1u : F[o].n == 2 ? 3u : 7u;
      unsigned neg = m & 7 & bits, abs = (m >> 3) & bits;
      if ((m & 7) != neg || ((m >> 3) & 7) != abs) continue;
      uint32_t a = vals[0], b = vals[1], c = vals[2];
      if (F[o].id == VT_INSN_FSQRT_S) a = 0x40100000u; /* 2.25: sqrt 1.5 */
      if (F[o].id == VT_INSN_FSQRT_S && (neg & 1)) continue; /* sqrt(-2.25): a NaN (ABS comes first) */
      xrun t = {0};
      t.fs_on = true;
      t.x[11] = a, t.x[12] = b, t.x[13] = c;
      const vt_insn_desc *d = vt_isa_insn(F[o].id);
      xr_op(&t, pfx(0, 0, (int)neg, (int)abs));
      xr_op(&t, F[o].n == 1 ? enc(F[o].id, A0, A1, 0) : F[o].n == 2 ? (d->nops == 3 ? enc(F[o].id, A0, A1, A2) : enc(F[o].id, A0, A1, A2, 0))
                                                            : enc(F[o].id, A0, A1, A2, A3, 0));
      xr_run(&t);
      XR_OK(st, &t);
      float x = u2f(fmods(a, neg & 1, abs & 1)), y = u2f(fmods(b, (neg >> 1) & 1, (abs >> 1) & 1));
      float z = u2f(fmods(c, (neg >> 2) & 1, (abs >> 2) & 1));
      uint32_t want;
      switch (F[o].id) {
      case VT_INSN_FADD_S: want = f2u(x + y); break;
      case VT_INSN_FSUB_S: want = f2u(x - y); break;
      case VT_INSN_FMUL_S: want = f2u(x * y); break;
      case VT_INSN_FDIV_S: want = f2u(x / y); break;
      case VT_INSN_FMIN_S: want = f2u(x < y ? x : y); break;
      case VT_INSN_FMAX_S: want = f2u(x > y ? x : y); break;
      case VT_INSN_FEQ_S: want = x == y; break;
      case VT_INSN_FLT_S: want = x < y; break;
      case VT_INSN_FLE_S: want = x <= y; break;
      case VT_INSN_FSQRT_S: want = f2u(sqrtf(x)); break;
      case VT_INSN_FMADD_S: want = f2u(fmaf(x, y, z)); break;
      case VT_INSN_FMSUB_S: want = f2u(fmaf(x, y, -z)); break;
      case VT_INSN_FNMSUB_S: want = f2u(fmaf(-x, y, z)); break;
      default: want = f2u(fmaf(-x, y, -z)); break;
      }
      if (t.out[10] != want) {
        st->failed_checks++;
        fprintf(stderr, "%s neg %u abs %u: 0x%08x, expected 0x%08x\n", d->mnemonic, neg, abs, t.out[10], want);
      }
    }
  /* 3.5.1: prefix neg=2; fadd.s a0, a1, a2 = a1 + (-a2); NEG keeps a
   * signalling NaN signalling (NV, canonical result); ABS of -0 */
  xrun t = {0};
  t.fs_on = true;
  t.x[11] = 0x40000000u, t.x[12] = 0x3f800000u; /* 2 + (-1) */
  t.x[13] = 0x7f800001u, t.x[14] = 0x80000000u;
  xr_op(&t, 0x0000210bu);
  xr_op(&t, 0x00c5f553u);
  xr_op(&t, pfx(0, 0, 1, 0));
  xr_op(&t, enc(VT_INSN_FADD_S, 5, A3, A1, 0)); /* -sNaN + 2 */
  xr_op(&t, enc(VT_INSN_CSRRS, 6, 0x001, ZERO));
  xr_op(&t, pfx(0, 0, 0, 1));
  xr_op(&t, enc(VT_INSN_FEQ_S, 7, A4, ZERO));   /* |-0| == +0 */
  xr_op(&t, pfx(0, 0, 0, 1));
  xr_op(&t, enc(VT_INSN_FMAX_S, 8, A4, ZERO)); /* max(|-0|, +0) = +0 */
  xr_run(&t);
  XR_OK(st, &t);
  CHECK_EQ_U32(st, t.out[10], 0x3f800000u);
  CHECK_EQ_U32(st, t.out[5], 0x7fc00000u);
  CHECK_EQ_U32(st, t.out[6], 0x10); /* NV */
  CHECK_EQ_U32(st, t.out[7], 1);
  CHECK_EQ_U32(st, t.out[8], 0);
}

/* ---- vector integer ---- */

typedef struct vrow {
  vt_insn_id id;
  char form; /* v, x, i */
  unsigned srcs;
} vrow;

static uint64_t vint_ref(const char *mn, uint64_t a, uint64_t b, uint64_t d, unsigned w) {
  int64_t sa = (int64_t)(a << (64 - w)) >> (64 - w), sb = (int64_t)(b << (64 - w)) >> (64 - w);
  uint64_t r;
  if (!strncmp(mn, "vadd", 4)) r = a + b;
  else if (!strncmp(mn, "vsub", 4)) r = a - b;
  else if (!strncmp(mn, "vrsub", 5)) r = b - a;
  else if (!strncmp(mn, "vmul", 4)) r = a * b;
  else if (!strncmp(mn, "vminu", 5)) r = a < b ? a : b;
  else if (!strncmp(mn, "vmaxu", 5)) r = a > b ? a : b;
  else if (!strncmp(mn, "vmin", 4)) r = sa < sb ? a : b;
  else if (!strncmp(mn, "vmax", 4)) r = sa > sb ? a : b;
  else if (!strncmp(mn, "vmacc", 5)) r = d + a * b;
  else if (!strncmp(mn, "vnmsac", 6)) r = d - a * b;
  else if (!strncmp(mn, "vmadd", 5)) r = b * d + a;
  else r = a - b * d; /* vnmsub */
  return r & mask_w(w);
}

TEST(vector_integer) {
  static const vrow R[] = {
      {VT_INSN_VADD_VV, 'v', 3},  {VT_INSN_VADD_VX, 'x', 3},  {VT_INSN_VADD_VI, 'i', 3},
      {VT_INSN_VSUB_VV, 'v', 3},  {VT_INSN_VSUB_VX, 'x', 3},  {VT_INSN_VRSUB_VX, 'x', 3},
      {VT_INSN_VRSUB_VI, 'i', 3}, {VT_INSN_VMUL_VV, 'v', 3},  {VT_INSN_VMUL_VX, 'x', 3},
      {VT_INSN_VMIN_VV, 'v', 3},  {VT_INSN_VMINU_VX, 'x', 3}, {VT_INSN_VMAX_VX, 'x', 3},
      {VT_INSN_VMAXU_VV, 'v', 3}, {VT_INSN_VMACC_VV, 'v', 7}, {VT_INSN_VNMSAC_VX, 'x', 7},
      {VT_INSN_VMADD_VV, 'v', 7}, {VT_INSN_VNMSUB_VX, 'x', 7},
  };
  static const unsigned ws[] = {8, 32, 64};
  uint64_t seed = 4242;
  for (unsigned k = 0; k < sizeof R / sizeof R[0]; k++)
    for (unsigned wi = 0; wi < 3; wi++)
      for (unsigned rep = 0; rep < 6; rep++) {
        unsigned w = ws[wi];
        unsigned neg = (unsigned)(lr_rand(&seed) % 8) & R[k].srcs, abs = (unsigned)(lr_rand(&seed) % 8) & R[k].srcs;
        if (R[k].form == 'i' && rep & 1) abs = 0; /* prefixi with and without ABS */
        lrun t = {0};
        t.numt = 8;
        t.vtype = w == 8 ? E8M1 : w == 32 ? E32M1 : E64;
        t.x[0] = 0x80000000u >> (rep * 5);
        for (unsigned r = 0; r < 8; r++)
          for (unsigned i = 0; i < 32; i++) t.v[r][i] = (uint32_t)lr_rand(&seed);
        if (rep == 0) t.v[0][0] = 0x80000000u, t.v[1][0] = 0x80000000u; /* INT_MIN in lane 0 */
        const vt_insn_desc *d = vt_isa_insn(R[k].id);
        bool madd = d->flags & VT_F_RVD;
        uint32_t word = R[k].form == 'i' ? enc(R[k].id, 12, 8, -7, 1)
                      : R[k].form == 'x' ? (madd ? enc(R[k].id, 12, A0, 8, 1) : enc(R[k].id, 12, 8, A0, 1))
                                         : (madd ? enc(R[k].id, 12, 10, 8, 1) : enc(R[k].id, 12, 8, 10, 1));
        /* prefixi's ext 0xfc0 (immediate bits 10:5 all ones) keeps the
         * 11-bit immediate at -7 */
        lr_op(&t, R[k].form == 'i' ? pfxi(0xfc0, (int)neg, (int)abs) : pfx(0, 0, (int)neg, (int)abs));
        lr_op(&t, word);
        lr_run(&t);
        LR_OK(st, &t);
        /* elements 0..7: at SEW 8 the packed bytes of the first lanes, else lanes / pairs */
        for (unsigned i = 0; i < 8 && t.rc == VT_OK; i++) {
          uint64_t A, B, D, got;
          if (w == 64) {
            A = (uint64_t)t.v[1][i] << 32 | t.v[0][i];
            B = (uint64_t)t.v[3][i] << 32 | t.v[2][i];
            D = (uint64_t)t.v[5][i] << 32 | t.v[4][i];
            got = lr_get64(&t, 12, i);
          } else if (w == 32) {
            A = t.v[0][i], B = t.v[2][i], D = t.v[4][i], got = t.out[4][i];
          } else {
            A = (t.v[0][i / 4] >> (8 * (i % 4))) & 0xff;
            B = (t.v[2][i / 4] >> (8 * (i % 4))) & 0xff;
            D = (t.v[4][i / 4] >> (8 * (i % 4))) & 0xff;
            got = (t.out[4][i / 4] >> (8 * (i % 4))) & 0xff;
          }
          if (R[k].form == 'x') B = (uint64_t)(int64_t)(int32_t)t.x[0];
          if (R[k].form == 'i') B = (uint64_t)(int64_t)-7;
          B = imod(B, w, neg & 1, abs & 1);
          A = imod(A, w, (neg >> 1) & 1, (abs >> 1) & 1);
          D = imod(D, w, (neg >> 2) & 1, (abs >> 2) & 1);
          uint64_t want = vint_ref(d->mnemonic, A, B, D, w);
          if (got != want) {
            st->failed_checks++;
            fprintf(stderr, "%s SEW %u neg %u abs %u elem %u: 0x%llx, expected 0x%llx\n", d->mnemonic, w,
                    neg, abs, i, (unsigned long long)got, (unsigned long long)want);
          }
        }
      }
  /* 3.5.1: prefixi neg=2; vadd.vi v2, v4, 5 = -V(4) + 5 */
  lrun t = {0};
  t.numt = 4;
  t.vtype = E32M1;
  for (unsigned i = 0; i < 4; i++) t.v[0][i] = 100 + i;
  lr_op(&t, 0x0000310bu);
  lr_op(&t, enc(VT_INSN_VADD_VI, 9, 8, 5, 1));
  lr_run(&t);
  LR_OK(st, &t);
  for (unsigned i = 0; i < 4; i++) CHECK_EQ_U32(st, t.out[1][i], 5u - (100 + i));
}

/* ---- vector FP ---- */

TEST(vector_fp) {
  static const struct { vt_insn_id id; char form; unsigned srcs; } R[] = {
      {VT_INSN_VFADD_VV, 'v', 3},  {VT_INSN_VFSUB_VF, 'f', 3},  {VT_INSN_VFRSUB_VF, 'f', 3},
      {VT_INSN_VFMUL_VV, 'v', 3},  {VT_INSN_VFDIV_VV, 'v', 3},  {VT_INSN_VFRDIV_VF, 'f', 3},
      {VT_INSN_VFMIN_VV, 'v', 3},  {VT_INSN_VFMAX_VF, 'f', 3},  {VT_INSN_VMFEQ_VV, 'v', 3},
      {VT_INSN_VMFLT_VF, 'f', 3},  {VT_INSN_VMFGE_VF, 'f', 3},  {VT_INSN_VFSQRT_V, 'u', 2},
      {VT_INSN_VFMACC_VV, 'v', 7}, {VT_INSN_VFNMSUB_VF, 'f', 7}, {VT_INSN_VFMSAC_VV, 'v', 7},
  };
  uint64_t seed = 99;
  for (unsigned k = 0; k < sizeof R / sizeof R[0]; k++)
    for (unsigned w = 32; w <= 64; w += 32)
      for (unsigned m = 0; m < 64; m++) {
        unsigned neg = m & 7, abs = (m >> 3) & 7;
        if ((neg | abs) & ~R[k].srcs) continue;
        lrun t = {0};
        t.numt = 4;
        t.vtype = w == 32 ? E32M1 : E64;
        for (unsigned r = 0; r < 8; r++)
          for (unsigned i = 0; i < 32; i++) {
            /* values around +-1..8: host arithmetic without NaNs or rounding surprises */
            uint64_t v = lr_rand(&seed);
            t.v[r][i] = w == 32 ? ((uint32_t)v & 0x807fffffu) | (uint32_t)(126 + v % 4) << 23
                                : (uint32_t)v;
            if (w == 64 && (r & 1)) t.v[r][i] = ((uint32_t)v & 0x800fffffu) | (uint32_t)(1022 + v % 4) << 20;
          }
        uint64_t sc = w == 32 ? 0x3fc00000u : 0xbff8000000000000ull;
        t.x[0] = (uint32_t)sc, t.x[1] = (uint32_t)(sc >> 32);
        const vt_insn_desc *d = vt_isa_insn(R[k].id);
        bool madd = d->flags & VT_F_RVD;
        uint32_t word = R[k].form == 'u' ? enc(R[k].id, 12, 8, 1)
                      : R[k].form == 'f' ? (madd ? enc(R[k].id, 12, A0, 8, 1) : enc(R[k].id, 12, 8, A0, 1))
                                         : (madd ? enc(R[k].id, 12, 10, 8, 1) : enc(R[k].id, 12, 8, 10, 1));
        lr_op(&t, pfx(0, 0, (int)neg, (int)abs));
        lr_op(&t, word);
        lr_run(&t);
        LR_OK(st, &t);
        for (unsigned i = 0; i < 4 && t.rc == VT_OK; i++) {
          uint64_t A = w == 32 ? t.v[0][i] : (uint64_t)t.v[1][i] << 32 | t.v[0][i];
          uint64_t B = w == 32 ? t.v[2][i] : (uint64_t)t.v[3][i] << 32 | t.v[2][i];
          uint64_t D = w == 32 ? t.v[4][i] : (uint64_t)t.v[5][i] << 32 | t.v[4][i];
          if (R[k].form == 'f') B = sc;
          uint64_t sb = 1ull << (w - 1);
#define FM(x, bit) (((abs >> bit) & 1 ? (x) & ~sb : (x)) ^ ((neg >> bit) & 1 ? sb : 0))
          B = FM(B, 0), A = FM(A, 1), D = FM(D, 2);
#undef FM
          double a = w == 32 ? u2f((uint32_t)A) : u2d(A), b = w == 32 ? u2f((uint32_t)B) : u2d(B);
          double c = w == 32 ? u2f((uint32_t)D) : u2d(D), r;
          bool cmp = false;
          switch (R[k].id) {
          case VT_INSN_VFADD_VV: r = a + b; break;
          case VT_INSN_VFSUB_VF: r = a - b; break;
          case VT_INSN_VFRSUB_VF: r = b - a; break;
          case VT_INSN_VFMUL_VV: r = a * b; break;
          case VT_INSN_VFDIV_VV: r = w == 32 ? (double)((float)a / (float)b) : a / b; break;
          case VT_INSN_VFRDIV_VF: r = w == 32 ? (double)((float)b / (float)a) : b / a; break;
          case VT_INSN_VFMIN_VV: r = a < b ? a : b; break;
          case VT_INSN_VFMAX_VF: r = a > b ? a : b; break;
          case VT_INSN_VMFEQ_VV: r = a == b, cmp = true; break;
          case VT_INSN_VMFLT_VF: r = a < b, cmp = true; break;
          case VT_INSN_VMFGE_VF: r = a >= b, cmp = true; break;
          case VT_INSN_VFSQRT_V: r = w == 32 ? (double)sqrtf((float)a) : sqrt(a); break;
          case VT_INSN_VFMACC_VV: r = w == 32 ? (double)fmaf((float)b, (float)a, (float)c) : fma(b, a, c); break;
          case VT_INSN_VFNMSUB_VF: r = w == 32 ? (double)fmaf(-(float)b, (float)c, (float)a) : fma(-b, c, a); break;
          default: r = w == 32 ? (double)fmaf((float)b, (float)a, -(float)c) : fma(b, a, -c); break;
          }
          /* binary32: the double result of float operands is exact here
           * (sums and products of 24-bit significands fit 53 bits), so
           * one conversion is the binary32 rounding */
          uint64_t want = cmp ? (uint64_t)r : w == 32 ? f2u((float)r) : d2u(r);
          uint64_t got = w == 32 ? t.out[4][i] : lr_get64(&t, 12, i);
          if (d->sem == VT_SEM_FSQRT && (A >> (w - 1))) continue; /* sqrt of a negative: NaN */
          if (got != want) {
            st->failed_checks++;
            fprintf(stderr, "%s SEW %u neg %u abs %u lane %u: 0x%llx, expected 0x%llx\n", d->mnemonic,
                    w, neg, abs, i, (unsigned long long)got, (unsigned long long)want);
          }
        }
      }
}

/* 3.5.1: prefix ext=1, abs=1; vfadd.vv v2, v4, v6 computes V(34,i) =
 * V(4,i) + |V(6,i)| (here v8/v10 for v4/v6; v40 read back through regext) */
TEST(spec_example_ext_abs) {
  lrun t = {0};
  t.numt = 4;
  t.vtype = E32M1;
  for (unsigned i = 0; i < 4; i++) t.v[0][i] = f2u(1.5f + (float)i), t.v[2][i] = f2u(-0.25f * (float)(i + 1));
  lr_op(&t, 0x0010a00bu);                          /* prefix ext=1, abs=1 */
  lr_op(&t, enc(VT_INSN_VFADD_VV, 8, 8, 10, 1));   /* v40 = v8 + |v10| */
  lr_op(&t, enc(VT_INSN_REGEXT, 1 << 6));           /* vs2 hi 001 */
  lr_op(&t, enc(VT_INSN_VADD_VI, 12, 8, 0, 1));     /* v12 = v40 */
  lr_run(&t);
  LR_OK(st, &t);
  for (unsigned i = 0; i < 4 && t.rc == VT_OK; i++)
    CHECK_EQ_U32(st, t.out[4][i], f2u(1.5f + (float)i + 0.25f * (float)(i + 1)));
  CHECK_EQ_U32(st, t.out[0][0], t.v[0][0]); /* v8 itself unchanged */
}

/* FP widening: NEG/ABS before widening; src3 is the wide accumulator */
TEST(vector_fp_widening) {
  lrun t = {0};
  t.numt = 4;
  t.vtype = E32M1;
  for (unsigned i = 0; i < 4; i++) {
    t.v[1][i] = f2u(1.25f + (float)i); /* v9: narrow A */
    t.v[3][i] = f2u(-0.5f);           /* v11: narrow B */
    t.v[4][i] = (uint32_t)d2u(-3.0), t.v[5][i] = (uint32_t)(d2u(-3.0) >> 32); /* v12: C */
  }
  lr_op(&t, pfx(0, 0, 1, 0));                    /* vfwadd.vv v14, v9, v11: A + (-B) */
  lr_op(&t, enc(VT_INSN_VFWADD_VV, 14, 9, 11, 1));
  lr_op(&t, pfx(0, 0, 0, 4));                    /* vfwmacc.vv v12: B*A + |C| */
  lr_op(&t, enc(VT_INSN_VFWMACC_VV, 12, 11, 9, 1));
  lr_run(&t);
  LR_OK(st, &t);
  for (unsigned i = 0; i < 4 && t.rc == VT_OK; i++) {
    double a = 1.25 + i;
    CHECK(st, lr_get64(&t, 14, i) == d2u(a + 0.5));
    CHECK(st, lr_get64(&t, 12, i) == d2u(-0.5 * a + 3.0));
  }
}

/* ---- illegal modifiers ---- */

TEST(ineligible) {
  static const struct { uint32_t pre, word; bool vec; const char *why; } I[] = {
      {0, 0x00e6053bu, false, "prefix modifier neg does not apply to addw"},
      {0, 0x00062503u, false, "prefix modifier neg does not apply to lw"},
      {1, 0x00e60533u, false, "prefix modifier abs does not apply to add"},          /* abs=4: no src3 */
      {2, 0x5805f553u, false, "prefix modifier neg does not apply to fsqrt.s"},      /* neg=2 */
      {0, 0xc00575d3u, false, "prefix modifier neg does not apply to fcvt.w.s"},
      {3, 0x02430157u, true, "prefix modifier neg does not apply to vadd.vv"},       /* prefixi */
      {0, 0xc653a157u, true, "prefix modifier neg does not apply to vwadd.vv"},
      {0, 0x22431157u, true, "prefix modifier neg does not apply to vfsgnj.vv"},
      {0, 0x4e401157u, true, "prefix modifier neg does not apply to vfsqrt.v"},      /* src1 */
      {4, 0x02431157u, true, "prefix modifier neg does not apply to vfadd.vv"},      /* neg=4 */
      {3, 0x00050513u, false, "prefix modifier neg does not apply to addi"},         /* prefixi, scalar */
  };
  for (unsigned k = 0; k < sizeof I / sizeof I[0]; k++) {
    uint32_t p = I[k].pre == 1 ? pfx(0, 0, 0, 4) : I[k].pre == 2 ? pfx(0, 0, 2, 0)
               : I[k].pre == 3 ? pfxi(0, 1, 0) : I[k].pre == 4 ? pfx(0, 0, 4, 0) : pfx(0, 0, 1, 0);
    if (I[k].vec) {
      lrun t = {0};
      t.numt = 4;
      t.vtype = E32M1;
      t.fs_off = false;
      lr_op(&t, p);
      lr_op(&t, I[k].word);
      lr_run(&t);
      LR_ILLEGAL(st, &t, I[k].why);
    } else {
      xrun t = {0};
      t.fs_on = true;
      t.x[12] = OUT_BASE;
      xr_op(&t, p);
      xr_op(&t, I[k].word);
      xr_run(&t);
      char want[128];
      snprintf(want, sizeof want, "illegal instruction: %s", I[k].why);
      XR_ERROR(st, &t, VT_ERR_ILLEGAL, 1, want);
    }
  }
}

/* ---- chains (3.5.4) and reserved bits ---- */

TEST(chains_and_reserved) {
  /* old + old: the second regext wins, as in v2.02 */
  xrun t = {0};
  xr_op(&t, enc(VT_INSN_REGEXT, 1));
  xr_op(&t, enc(VT_INSN_ADDI, A2, ZERO, 77)); /* x44 = 77 */
  xr_op(&t, enc(VT_INSN_REGEXT, 1));
  xr_op(&t, enc(VT_INSN_REGEXT, 8));
  xr_op(&t, enc(VT_INSN_ADDI, A0, A2, 0));   /* rs1 hi 1: a0 = x44 */
  xr_run(&t);
  XR_OK(st, &t);
  CHECK_EQ_U32(st, t.out[10], 77);
  /* any chain with a new form stops at the second prefix (C11) */
  static const uint32_t chains[][2] = {
      {0x0480200bu /* regext 72 */, 0x0000210bu /* prefix neg=2 */},
      {0x0000210bu, 0x0480200bu},
      {0x0000210bu, 0x0000310bu /* prefixi neg=2 */},
      {0x0000540bu /* prefix_memory space=global */, 0x0410300bu /* regexti 65 */},
      {0x0410300bu, 0x0000540bu},
  };
  for (unsigned k = 0; k < 5; k++) {
    xrun c = {0};
    xr_op(&c, chains[k][0]);
    xr_op(&c, chains[k][1]);
    xr_op(&c, enc(VT_INSN_ADD, A0, A2, A4));
    xr_run(&c);
    XR_ERROR(st, &c, VT_ERR_ILLEGAL, 1, "illegal instruction: prefix after prefix");
  }
  /* reserved bits: PREFIX bit 11, bits 19:18; PREFIXI bit 10 */
  static const uint32_t reserved[] = {0x0000280bu, 0x0004200bu, 0x0008210bu, 0x0000350bu};
  for (unsigned k = 0; k < 4; k++) {
    xrun r = {0};
    xr_op(&r, reserved[k]);
    xr_run(&r);
    XR_ERROR(st, &r, VT_ERR_ILLEGAL, 0, "illegal instruction");
  }
  /* a prefix is consumed by the next instruction, whatever it is: the add
   * after a prefixed nop-like addi is unmodified */
  xrun u = {0};
  u.x[12] = 10, u.x[14] = 3;
  xr_op(&u, pfx(0, 0, 1, 0));
  xr_op(&u, enc(VT_INSN_ADDI, 5, ZERO, 0)); /* t0 = -0 + 0 */
  xr_op(&u, enc(VT_INSN_SUB, A0, A2, A4));
  xr_run(&u);
  XR_OK(st, &u);
  CHECK_EQ_U32(st, u.out[10], 7);
}

RUN_TESTS(T(scalar_integer), T(scalar_fp), T(vector_integer), T(vector_fp), T(spec_example_ext_abs),
          T(vector_fp_widening),
          T(ineligible), T(chains_and_reserved))
