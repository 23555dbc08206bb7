/* Vector FP at SEW = 16 and the FP widening/narrowing instructions
 * (src/sim/exec_vector_fp16.c): small programs with hand-computed binary16
 * and binary32 values (harness: sew_harness.h). Checked: element values,
 * the packed layout (two halves per 32-bit lane, untouched bytes), masked
 * and inactive elements unchanged, fflags, rounding through frm, and the
 * cases that stay illegal. */
#include "check.h"
#include "sew_harness.h"

#define FNX 0x01
#define FUF 0x02
#define FOF 0x04
#define FNV 0x10

static void expect_flags(check_state *st, sewt *t, uint32_t want, int line) {
  if (t->rc == VT_OK && t->fflags != want) {
    st->failed_checks++;
    fprintf(stderr, "line %d: fflags 0x%02x, expected 0x%02x\n", line, t->fflags, want);
  }
}
#define EXPECT_FLAGS(t, f) expect_flags(st, t, f, __LINE__)

/* 1.0, 2.0, -1.5, 65504 op 0.5, 3.0, 0.25, 2.0; vl = 8 > numt = 4: only
 * elements 0..3 are processed, bytes 8..15 of each register stay */
TEST(arith_e16) {
  sewt *t = sewt_new(4, E16, 8);
  SETV(t, 1, 16, 0x3c00, 0x4000, 0xbe00, 0x7bff);
  SETV(t, 2, 16, 0x3800, 0x4200, 0x3400, 0x4000);
  t->x[0] = 0xdead4000; /* .vf scalar: low 16 bits, 2.0 */
  op(t, enc(VT_INSN_VFADD_VV, 3, 1, 2, 1));
  op(t, enc(VT_INSN_VFMUL_VV, 4, 1, 2, 1));
  op(t, enc(VT_INSN_VFDIV_VV, 5, 1, 2, 1));
  op(t, enc(VT_INSN_VFRSUB_VF, 6, 1, A0, 1));
  op(t, enc(VT_INSN_VFSQRT_V, 7, 2, 1));
  op(t, enc(VT_INSN_VFREC7_V, 8, 2, 1));
  run(t);
  EXPECT(t, 3, 16, 0x3e00, 0x4500, 0xbd00, 0x7bff); /* 65506 -> 65504, NX */
  EXPECT(t, 4, 16, 0x3800, 0x4600, 0xb600, 0x7c00); /* 131008: OF */
  EXPECT(t, 5, 16, 0x4000, 0x3955, 0xc600, 0x77ff); /* 2/3 inexact */
  EXPECT(t, 6, 16, 0x3c00, 0x0000, 0x4300, 0xfbff); /* 2 - x; -65502 -> -65504 */
  EXPECT(t, 7, 16, 0x39a8, 0x3eee, 0x3800, 0x3da8); /* sqrt 0.5, 3, 0.25, 2 */
  EXPECT(t, 8, 16, 0x3ff8, 0x3550, 0x43f8, 0x37f8); /* rec7: table[0], [64], [0], [0] */
  EXPECT_FLAGS(t, FOF | FNX);
  FINISH(t);
}

/* multiply-add family and the conversions at SEW 16 */
TEST(fma_cvt_e16) {
  sewt *t = sewt_new(4, E16, 4);
  SETV(t, 1, 16, 0x3c00, 0x4000, 0xbe00, 0x3400);  /* 1, 2, -1.5, 0.25 */
  SETV(t, 2, 16, 0x3800, 0x4200, 0x3400, 0x4000);  /* 0.5, 3, 0.25, 2 */
  SETV(t, 3, 16, 0x3c00, 0x3c00, 0x3c00, 0x3c00);  /* 1.0 */
  SETV(t, 4, 16, 0x3c00, 0x3c00, 0x3c00, 0x3c00);
  SETV(t, 5, 16, 0x4000, 0x4000, 0x4000, 0x4000);  /* 2.0 */
  SETV(t, 8, 16, 0xffff, 2049, 32767, 7);          /* int16 */
  t->x[0] = 0x4000;
  op(t, enc(VT_INSN_VFMACC_VF, 3, A0, 1, 1));      /* v3 += 2 * v1 */
  op(t, enc(VT_INSN_VFNMSAC_VV, 4, 1, 2, 1));      /* v4 = -(v1*v2) + v4 */
  op(t, enc(VT_INSN_VFMADD_VV, 5, 1, 2, 1));       /* v5 = v1 * v5 + v2 */
  op(t, enc(VT_INSN_VFCVT_X_F_V, 6, 1, 1));
  op(t, enc(VT_INSN_VFCVT_F_X_V, 7, 8, 1));
  run(t);
  EXPECT(t, 3, 16, 0x4200, 0x4500, 0xc000, 0x3e00);
  EXPECT(t, 4, 16, 0x3800, 0xc500, 0x3d80, 0x3800); /* 0.5, -5, 1.375, 0.5 */
  EXPECT(t, 5, 16, 0x4100, 0x4700, 0xc180, 0x4100); /* 2.5, 7, -2.75, 2.5 */
  EXPECT(t, 6, 16, 1, 2, 0xfffe, 0);                /* -1.5 -> -2, 0.25 -> 0: NX */
  EXPECT(t, 7, 16, 0xbc00, 0x6800, 0x7800, 0x4700); /* 2049 -> 2048, 32767 -> 32768 */
  EXPECT_FLAGS(t, FNX);
  FINISH(t);
}

/* compares write 0/1 16-bit elements; min/classify/sign injection */
TEST(compare_misc_e16) {
  sewt *t = sewt_new(4, E16, 4);
  SETV(t, 1, 16, 0x3c00, 0x7e00, 0x8000, 0x4000); /* 1, qNaN, -0, 2 */
  SETV(t, 2, 16, 0x3c00, 0x3c00, 0x0000, 0x4200); /* 1, 1, +0, 3 */
  op(t, enc(VT_INSN_VMFEQ_VV, 3, 1, 2, 1));
  op(t, enc(VT_INSN_VMFLT_VV, 4, 1, 2, 1));
  op(t, enc(VT_INSN_VFMIN_VV, 5, 1, 2, 1));
  op(t, enc(VT_INSN_VFCLASS_V, 6, 1, 1));
  op(t, enc(VT_INSN_VFSGNJN_VV, 7, 1, 2, 1));
  run(t);
  EXPECT(t, 3, 16, 1, 0, 1, 0);
  EXPECT(t, 4, 16, 0, 0, 0, 1);
  EXPECT(t, 5, 16, 0x3c00, 0x3c00, 0x8000, 0x4000);
  EXPECT(t, 6, 16, 0x40, 0x200, 0x08, 0x40);
  EXPECT(t, 7, 16, 0xbc00, 0xfe00, 0x8000, 0xc000);
  EXPECT_FLAGS(t, FNV); /* vmflt with a NaN */
  FINISH(t);
}

/* frm selects the rounding: 1 + 2^-11 is a tie */
TEST(rounding_via_frm) {
  static const struct { unsigned frm; uint32_t r0, r1; } c[] = {
      {0, 0x3c00, 0xbc00}, {1, 0x3c00, 0xbc00}, {2, 0x3c00, 0xbc01}, {3, 0x3c01, 0xbc00}, {4, 0x3c01, 0xbc01}};
  for (unsigned k = 0; k < 5; k++) {
    sewt *t = sewt_new(4, E16, 2);
    t->frm = c[k].frm;
    SETV(t, 1, 16, 0x3c00, 0xbc00);
    SETV(t, 2, 16, 0x1000, 0x9000); /* +-2^-11 */
    op(t, enc(VT_INSN_VFADD_VV, 3, 1, 2, 1));
    run(t);
    EXPECT(t, 3, 16, c[k].r0, c[k].r1);
    EXPECT_FLAGS(t, FNX);
    FINISH(t);
  }
  sewt *t = sewt_new(4, E16, 2);
  t->frm = 5;
  op(t, enc(VT_INSN_VFADD_VV, 3, 1, 2, 1));
  run(t);
  EXPECT_ERROR(t, "frm = 5");
  t = sewt_new(4, E16, 2);
  t->fs_off = true;
  op(t, enc(VT_INSN_VFADD_VV, 3, 1, 2, 1));
  run(t);
  EXPECT_ERROR(t, "mstatus.FS");
}

/* SIMT mask (active = 2) and v0.t: inactive elements unchanged; moves and
 * merges ignore the SIMT mask; vfmv.s.f writes element 0, vfmv.f.s reads
 * it sign-extended */
TEST(masks_moves_e16) {
  sewt *t = sewt_new(4, E16, 4);
  t->active = 2;
  SETV(t, 0, 8, 0x05); /* v0: elements 0 and 2 */
  SETV(t, 1, 16, 0x3c00, 0x4000, 0x4200, 0x4400);
  SETV(t, 2, 16, 0x3c00, 0x3c00, 0x3c00, 0x3c00);
  t->x[0] = 0x12344500; /* 5.0 */
  t->x[1] = 0xffffbc00; /* -1.0 */
  op(t, enc(VT_INSN_VFADD_VV, 3, 1, 2, 1));     /* elements 0, 1 */
  op(t, enc(VT_INSN_VFADD_VV, 4, 1, 2, 0));     /* v0.t and SIMT: element 0 */
  op(t, enc(VT_INSN_VFMV_V_F, 5, A0));          /* all < vl */
  op(t, enc(VT_INSN_VFMERGE_VFM, 6, 1, A0));    /* all < vl, by v0 */
  op(t, enc(VT_INSN_VFMV_S_F, 7, A1));
  op(t, enc(VT_INSN_VFMV_F_S, A0, 7));
  run(t);
  EXPECT_M(t, 3, 16, 0x3, 0x4000, 0x4200);
  EXPECT_M(t, 4, 16, 0x1, 0x4000);
  EXPECT(t, 5, 16, 0x4500, 0x4500, 0x4500, 0x4500);
  EXPECT(t, 6, 16, 0x4500, 0x4000, 0x4500, 0x4400);
  EXPECT_M(t, 7, 16, 0x1, 0xbc00);
  CHECK_EQ_U32(st, t->a0, 0xffffbc00u);
  EXPECT_FLAGS(t, 0);
  FINISH(t);
}

TEST(reductions_slides_e16) {
  sewt *t = sewt_new(4, E16, 4);
  SETV(t, 1, 16, 0x3c00, 0x4000, 0x3800, 0x3400); /* 1, 2, 0.5, 0.25 */
  SETV(t, 2, 16, 0x3000);                         /* 0.125 */
  SETV(t, 5, 32, 0x3f800000);                     /* 1.0f */
  t->x[0] = 0x4400;
  op(t, enc(VT_INSN_VFREDUSUM_VS, 3, 1, 2, 1));
  op(t, enc(VT_INSN_VFWREDOSUM_VS, 4, 1, 5, 1));
  op(t, enc(VT_INSN_VFREDMAX_VS, 6, 1, 2, 1));
  op(t, enc(VT_INSN_VFSLIDE1UP_VF, 7, 1, A0, 1));
  op(t, enc(VT_INSN_VFSLIDE1DOWN_VF, 8, 1, A0, 1));
  run(t);
  EXPECT(t, 3, 16, 0x43c0);     /* 3.875 */
  EXPECT(t, 4, 32, 0x40980000); /* 4.75f */
  EXPECT(t, 6, 16, 0x4000);
  EXPECT(t, 7, 16, 0x4400, 0x3c00, 0x4000, 0x3800);
  EXPECT(t, 8, 16, 0x4000, 0x3800, 0x3400, 0x4400);
  EXPECT_FLAGS(t, 0);
  FINISH(t);
}

/* SEW 16 -> 32: the destination group is 2 registers (LMUL 1 -> EMUL 2);
 * with elements < numt only its first register is written */
TEST(widening_e16) {
  sewt *t = sewt_new(4, E16, 4);
  SETV(t, 1, 16, 0x3c00, 0x4000, 0xbe00, 0x7bff); /* 1, 2, -1.5, 65504 */
  SETV(t, 2, 16, 0x3800, 0x4200, 0x3400, 0x4000); /* 0.5, 3, 0.25, 2 */
  SETV(t, 8, 32, 0x3f800000, 0x3f800000, 0x3f800000, 0x3f800000);
  t->x[0] = 0x4000;
  op(t, enc(VT_INSN_VFWADD_VV, 4, 1, 2, 1));
  op(t, enc(VT_INSN_VFWMUL_VF, 6, 1, A0, 1));
  op(t, enc(VT_INSN_VFWSUB_W_WV, 7, 4, 1, 1));
  op(t, enc(VT_INSN_VFWMACC_VV, 8, 1, 2, 1));
  run(t);
  EXPECT(t, 4, 32, 0x3fc00000, 0x40a00000, 0xbfa00000, 0x477fe200); /* 1.5 5 -1.25 65506 */
  EXPECT(t, 6, 32, 0x40000000, 0x40800000, 0xc0400000, 0x47ffe000); /* 131008: no OF */
  EXPECT(t, 7, 32, 0x3f000000, 0x40400000, 0x3e800000, 0x40000000);
  EXPECT(t, 8, 32, 0x3fc00000, 0x40e00000, 0x3f200000, 0x47ffe080); /* 131009 */
  EXPECT_FLAGS(t, 0);
  FINISH(t);
}

TEST(widening_cvt_e16) {
  sewt *t = sewt_new(4, E16, 4);
  SETV(t, 1, 16, 0x3c00, 0xc000, 0x0001, 0x7d00); /* 1, -2, 2^-24, sNaN */
  SETV(t, 2, 16, 0xffff, 32767, 0x8000, 5);       /* int16 */
  op(t, enc(VT_INSN_VFWCVT_F_F_V, 3, 1, 1));
  op(t, enc(VT_INSN_VFWCVT_F_X_V, 4, 2, 1));
  op(t, enc(VT_INSN_VFWCVT_F_XU_V, 5, 2, 1));
  op(t, enc(VT_INSN_VFWCVT_X_F_V, 6, 1, 1));
  run(t);
  EXPECT(t, 3, 32, 0x3f800000, 0xc0000000, 0x33800000, 0x7fc00000);
  EXPECT(t, 4, 32, 0xbf800000, 0x46fffe00, 0xc7000000, 0x40a00000);
  EXPECT(t, 5, 32, 0x477fff00, 0x46fffe00, 0x47000000, 0x40a00000);
  EXPECT(t, 6, 32, 1, 0xfffffffe, 0, 0x7fffffff);
  EXPECT_FLAGS(t, FNV | FNX);
  FINISH(t);
}

TEST(narrowing_e16) {
  sewt *t = sewt_new(4, E16, 4);
  /* 1 + 2^-11, 65536, -2.5, 1e-8 */
  SETV(t, 3, 32, 0x3f801000, 0x47800000, 0xc0200000, 0x322bcc77);
  SETV(t, 8, 32, 100000, 0xfffffffd, 2049, 65519);
  op(t, enc(VT_INSN_VFNCVT_F_F_W, 4, 3, 1));
  op(t, enc(VT_INSN_VFNCVT_ROD_F_F_W, 5, 3, 1));
  op(t, enc(VT_INSN_VFNCVT_X_F_W, 6, 3, 1));
  op(t, enc(VT_INSN_VFNCVT_F_X_W, 7, 8, 1));
  run(t);
  EXPECT(t, 4, 16, 0x3c00, 0x7c00, 0xc100, 0x0000);
  EXPECT(t, 5, 16, 0x3c01, 0x7bff, 0xc100, 0x0001);
  EXPECT(t, 6, 16, 1, 0x7fff, 0xfffe, 0);
  EXPECT(t, 7, 16, 0x7c00, 0xc200, 0x6800, 0x7bff);
  EXPECT_FLAGS(t, FNV | FOF | FUF | FNX);
  FINISH(t);
}

/* SEW 8: int8 <-> binary16 */
TEST(int8_converts_e8) {
  sewt *t = sewt_new(4, E8, 4);
  SETV(t, 1, 8, 0x80, 0x7f, 0x03, 0xff);
  SETV(t, 3, 16, 0x5cb0, 0xc100, 0x3800, 0xda40); /* 300, -2.5, 0.5, -200 */
  op(t, enc(VT_INSN_VFWCVT_F_X_V, 4, 1, 1));
  op(t, enc(VT_INSN_VFWCVT_F_XU_V, 5, 1, 1));
  op(t, enc(VT_INSN_VFNCVT_X_F_W, 6, 3, 1));
  op(t, enc(VT_INSN_VFNCVT_XU_F_W, 7, 3, 1));
  op(t, enc(VT_INSN_VFNCVT_RTZ_X_F_W, 8, 3, 1));
  run(t);
  EXPECT(t, 4, 16, 0xd800, 0x57f0, 0x4200, 0xbc00); /* -128 127 3 -1 */
  EXPECT(t, 5, 16, 0x5800, 0x57f0, 0x4200, 0x5bf8); /* 128 127 3 255 */
  EXPECT(t, 6, 8, 0x7f, 0xfe, 0x00, 0x80);
  EXPECT(t, 7, 8, 0xff, 0x00, 0x00, 0x00);
  EXPECT(t, 8, 8, 0x7f, 0xfe, 0x00, 0x80);
  EXPECT_FLAGS(t, FNV | FNX);
  FINISH(t);
}

/* what stays illegal */
TEST(illegal_cases) {
  /* SEW 32: narrowing from binary64 and widening reductions stay illegal
   * (isa2025.md 3.2.3; widening itself is legal, test_sim_sew64.c) */
  static const vt_insn_id w32[] = {VT_INSN_VFNCVT_F_F_W, VT_INSN_VFWREDUSUM_VS};
  static const char *const why[] = {"no narrowing from 64-bit elements",
                                    "no reductions of 64-bit elements"};
  for (unsigned k = 0; k < sizeof w32 / sizeof w32[0]; k++) {
    sewt *t = sewt_new(4, E32, 4);
    const vt_insn_desc *d = vt_isa_insn(w32[k]);
    op(t, d->nops == 3 ? enc(w32[k], 4, 2, 1) : enc(w32[k], 4, 2, 2, 1));
    run(t);
    EXPECT_ERROR(t, why[k]);
  }
  /* no 8-bit float: vfwcvt.f.f.v at SEW 8, vfncvt.f.x.w at SEW 8 */
  static const vt_insn_id e8[] = {VT_INSN_VFWCVT_F_F_V, VT_INSN_VFNCVT_F_X_W, VT_INSN_VFMV_V_F};
  for (unsigned k = 0; k < sizeof e8 / sizeof e8[0]; k++) {
    sewt *t = sewt_new(4, E8, 4);
    op(t, e8[k] == VT_INSN_VFMV_V_F ? enc(e8[k], 3, A0) : enc(e8[k], 4, 1, 1));
    run(t);
    EXPECT_ERROR(t, "no 8-bit floating point");
  }
  sewt *t = sewt_new(4, E16 | 3, 4);
  op(t, enc(VT_INSN_VFWADD_VV, 8, 16, 24, 1));
  run(t);
  EXPECT_ERROR(t, "LMUL = 8");
}

RUN_TESTS(T(arith_e16), T(fma_cvt_e16), T(compare_misc_e16), T(rounding_via_frm),
          T(masks_moves_e16), T(reductions_slides_e16), T(widening_e16), T(widening_cvt_e16),
          T(narrowing_e16), T(int8_converts_e8), T(illegal_cases))
