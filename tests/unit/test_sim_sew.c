/* Integer vector arithmetic at SEW = 8 and 16 (src/sim/exec_vector_sew.c):
 * small programs with hand-computed element values. Each run preloads
 * v0..v8 from memory (whole-register loads), sets a0..a3 and vxrm, may
 * narrow the SIMT mask with a vector branch, sets vtype/vl, runs the
 * instructions under test, and stores v0..v8, vxsat and a0. Every byte of
 * v0..v8 that a test does not expect to change is checked unchanged. */
#include "check.h"
#include "sew_harness.h"

/* ---------------- single width ---------------- */

/* wrap-around at SEW 8; vl = 32 = VLMAX but elements >= numt = 8 are never
 * processed (isa.md 3.2); scalars truncated to SEW, simm5 sign-extended */
TEST(add_sub_e8) {
  sewt *t = sewt_new(8, E8, 32);
  SETV(t, 1, 8, 0x7f, 0xff, 0x80, 0x01, 0x10, 0xfe, 0x00, 0x55);
  SETV(t, 2, 8, 0x01, 0x01, 0x80, 0xff, 0x20, 0xfe, 0x00, 0xab);
  t->x[0] = 0x1ff; /* e8: 0xff */
  op(t, enc(VT_INSN_VADD_VV, 3, 1, 2, 1));
  op(t, enc(VT_INSN_VSUB_VX, 4, 1, A0, 1));
  op(t, enc(VT_INSN_VRSUB_VI, 5, 1, -3, 1));
  op(t, enc(VT_INSN_VADD_VI, 6, 1, 15, 1));
  run(t);
  EXPECT(t, 3, 8, 0x80, 0x00, 0x00, 0x00, 0x30, 0xfc, 0x00, 0x00);
  EXPECT(t, 4, 8, 0x80, 0x00, 0x81, 0x02, 0x11, 0xff, 0x01, 0x56);
  EXPECT(t, 5, 8, 0x7e, 0xfe, 0x7d, 0xfc, 0xed, 0xff, 0xfd, 0xa8);
  EXPECT(t, 6, 8, 0x8e, 0x0e, 0x8f, 0x10, 0x1f, 0x0d, 0x0f, 0x64);
  FINISH(t);
}

TEST(add_sub_e16) {
  sewt *t = sewt_new(4, E16, 8);
  SETV(t, 1, 16, 0x7fff, 0xffff, 0x8000, 0x1234);
  SETV(t, 2, 16, 0x0001, 0xffff, 0x8000, 0xedcc);
  t->x[0] = 0xabcd0003; /* e16: 0x0003 */
  op(t, enc(VT_INSN_VADD_VV, 3, 1, 2, 1));
  op(t, enc(VT_INSN_VSUB_VX, 4, 1, A0, 1));
  op(t, enc(VT_INSN_VRSUB_VX, 5, 1, A0, 1));
  op(t, enc(VT_INSN_VADD_VI, 6, 1, -16, 1));
  run(t);
  EXPECT(t, 3, 16, 0x8000, 0xfffe, 0x0000, 0x0000);
  EXPECT(t, 4, 16, 0x7ffc, 0xfffc, 0x7ffd, 0x1231);
  EXPECT(t, 5, 16, 0x8004, 0x0004, 0x8003, 0xedcf);
  EXPECT(t, 6, 16, 0x7fef, 0xffef, 0x7ff0, 0x1224);
  FINISH(t);
}

/* signed vs unsigned; rs1 = 0x101 is 0x01 at SEW 8 */
TEST(min_max_e8) {
  sewt *t = sewt_new(8, E8, 8);
  SETV(t, 1, 8, 0x80, 0x7f, 0xff, 0x01, 0x00, 0x02, 0xfe, 0x40);
  t->x[0] = 0x101;
  op(t, enc(VT_INSN_VMINU_VX, 3, 1, A0, 1));
  op(t, enc(VT_INSN_VMIN_VX, 4, 1, A0, 1));
  op(t, enc(VT_INSN_VMAXU_VX, 5, 1, A0, 1));
  op(t, enc(VT_INSN_VMAX_VX, 6, 1, A0, 1));
  run(t);
  EXPECT(t, 3, 8, 0x01, 0x01, 0x01, 0x01, 0x00, 0x01, 0x01, 0x01);
  EXPECT(t, 4, 8, 0x80, 0x01, 0xff, 0x01, 0x00, 0x01, 0xfe, 0x01);
  EXPECT(t, 5, 8, 0x80, 0x7f, 0xff, 0x01, 0x01, 0x02, 0xfe, 0x40);
  EXPECT(t, 6, 8, 0x01, 0x7f, 0x01, 0x01, 0x01, 0x02, 0x01, 0x40);
  FINISH(t);
}

TEST(min_max_logic_e16) {
  sewt *t = sewt_new(4, E16, 4);
  SETV(t, 1, 16, 0x8000, 0x7fff, 0xffff, 0x0001);
  SETV(t, 2, 16, 0x7fff, 0x8000, 0x0001, 0xffff);
  t->x[0] = 0x00ff00f0;
  op(t, enc(VT_INSN_VMIN_VV, 3, 1, 2, 1));
  op(t, enc(VT_INSN_VMAXU_VV, 4, 1, 2, 1));
  op(t, enc(VT_INSN_VAND_VI, 5, 1, -2, 1));
  op(t, enc(VT_INSN_VOR_VX, 6, 1, A0, 1));
  op(t, enc(VT_INSN_VXOR_VV, 7, 1, 2, 1));
  run(t);
  EXPECT(t, 3, 16, 0x8000, 0x8000, 0xffff, 0xffff);
  EXPECT(t, 4, 16, 0x8000, 0x8000, 0xffff, 0xffff);
  EXPECT(t, 5, 16, 0x8000, 0x7ffe, 0xfffe, 0x0000);
  EXPECT(t, 6, 16, 0x80f0, 0x7fff, 0xffff, 0x00f1);
  EXPECT(t, 7, 16, 0xffff, 0xffff, 0xfffe, 0xfffe);
  FINISH(t);
}

/* shift amounts use log2(SEW) bits */
TEST(shifts_e8) {
  sewt *t = sewt_new(8, E8, 8);
  SETV(t, 1, 8, 0x81, 0x81, 0x81, 0x81, 0x80, 0x7f, 0xf0, 0x0f);
  SETV(t, 2, 8, 0, 1, 7, 8, 9, 15, 3, 4); /* & 7: 0 1 7 0 1 7 3 4 */
  t->x[0] = 9;                              /* & 7: 1 */
  op(t, enc(VT_INSN_VSRA_VV, 3, 1, 2, 1));
  op(t, enc(VT_INSN_VSLL_VX, 4, 1, A0, 1));
  op(t, enc(VT_INSN_VSRL_VI, 5, 1, 15, 1));
  op(t, enc(VT_INSN_VSRL_VV, 6, 1, 2, 1));
  run(t);
  EXPECT(t, 3, 8, 0x81, 0xc0, 0xff, 0x81, 0xc0, 0x00, 0xfe, 0x00);
  EXPECT(t, 4, 8, 0x02, 0x02, 0x02, 0x02, 0x00, 0xfe, 0xe0, 0x1e);
  EXPECT(t, 5, 8, 0x01, 0x01, 0x01, 0x01, 0x01, 0x00, 0x01, 0x00);
  EXPECT(t, 6, 8, 0x81, 0x40, 0x01, 0x81, 0x40, 0x00, 0x1e, 0x00);
  FINISH(t);
}

TEST(shifts_e16) {
  sewt *t = sewt_new(4, E16, 4);
  SETV(t, 1, 16, 0x8000, 0x7fff, 0x8001, 0x00ff);
  t->x[0] = 17; /* & 15: 1 */
  op(t, enc(VT_INSN_VSLL_VX, 3, 1, A0, 1));
  op(t, enc(VT_INSN_VSRA_VI, 4, 1, 31, 1)); /* & 15: 15 */
  op(t, enc(VT_INSN_VSRL_VX, 5, 1, A0, 1));
  run(t);
  EXPECT(t, 3, 16, 0x0000, 0xfffe, 0x0002, 0x01fe);
  EXPECT(t, 4, 16, 0xffff, 0x0000, 0xffff, 0x0000);
  EXPECT(t, 5, 16, 0x4000, 0x3fff, 0x4000, 0x007f);
  FINISH(t);
}

/* Ventus compares write 0/1 as SEW-wide elements (isa.md 3.4) */
TEST(compares_e8) {
  sewt *t = sewt_new(8, E8, 8);
  SETV(t, 1, 8, 0x80, 0x7f, 0xff, 0x01, 0x00, 0xfe, 0x80, 0x02);
  SETV(t, 2, 8, 0x7f, 0x80, 0xff, 0x02, 0x00, 0xff, 0x00, 0x01);
  t->x[0] = 0x100; /* e8: 0 */
  op(t, enc(VT_INSN_VMSLT_VX, 3, 1, A0, 1));
  op(t, enc(VT_INSN_VMSLTU_VV, 4, 1, 2, 1));
  op(t, enc(VT_INSN_VMSEQ_VI, 5, 1, -1, 1));
  op(t, enc(VT_INSN_VMSGTU_VI, 6, 1, -2, 1)); /* > 0xfe */
  op(t, enc(VT_INSN_VMSLE_VV, 7, 1, 2, 1));
  op(t, enc(VT_INSN_VMSGT_VX, 8, 1, A0, 1));
  run(t);
  EXPECT(t, 3, 8, 1, 0, 1, 0, 0, 1, 1, 0);
  EXPECT(t, 4, 8, 0, 1, 0, 1, 0, 1, 0, 0);
  EXPECT(t, 5, 8, 0, 0, 1, 0, 0, 0, 0, 0);
  EXPECT(t, 6, 8, 0, 0, 1, 0, 0, 0, 0, 0);
  EXPECT(t, 7, 8, 1, 0, 1, 1, 1, 1, 1, 0);
  EXPECT(t, 8, 8, 0, 1, 0, 1, 0, 0, 0, 1);
  FINISH(t);
}

TEST(compares_e16) {
  sewt *t = sewt_new(4, E16, 4);
  SETV(t, 1, 16, 0x8000, 0x7fff, 0xffff, 0x0005);
  SETV(t, 2, 16, 0x7fff, 0x8000, 0xffff, 0x0006);
  op(t, enc(VT_INSN_VMSLE_VV, 3, 1, 2, 1));
  op(t, enc(VT_INSN_VMSLEU_VV, 4, 1, 2, 1));
  op(t, enc(VT_INSN_VMSNE_VV, 5, 1, 2, 1));
  op(t, enc(VT_INSN_VMSLEU_VI, 6, 1, 5, 1));
  op(t, enc(VT_INSN_VMSGT_VI, 7, 1, -1, 1));
  run(t);
  EXPECT(t, 3, 16, 1, 0, 1, 1);
  EXPECT(t, 4, 16, 0, 1, 1, 1);
  EXPECT(t, 5, 16, 1, 1, 0, 1);
  EXPECT(t, 6, 16, 0, 0, 0, 1);
  EXPECT(t, 7, 16, 0, 1, 0, 1);
  FINISH(t);
}

TEST(mul_e8) {
  sewt *t = sewt_new(8, E8, 8);
  SETV(t, 1, 8, 0x80, 0x7f, 0xff, 0x10, 0x80, 0x02, 0xc0, 0x03);
  SETV(t, 2, 8, 0x80, 0x7f, 0xff, 0x10, 0x7f, 0xfe, 0x40, 0x55);
  op(t, enc(VT_INSN_VMUL_VV, 3, 1, 2, 1));
  op(t, enc(VT_INSN_VMULH_VV, 4, 1, 2, 1));
  op(t, enc(VT_INSN_VMULHU_VV, 5, 1, 2, 1));
  op(t, enc(VT_INSN_VMULHSU_VV, 6, 1, 2, 1));
  run(t);
  EXPECT(t, 3, 8, 0x00, 0x01, 0x01, 0x00, 0x80, 0xfc, 0x00, 0xff);
  EXPECT(t, 4, 8, 0x40, 0x3f, 0x00, 0x01, 0xc0, 0xff, 0xf0, 0x00);
  EXPECT(t, 5, 8, 0x40, 0x3f, 0xfe, 0x01, 0x3f, 0x01, 0x30, 0x00);
  EXPECT(t, 6, 8, 0xc0, 0x3f, 0xff, 0x01, 0xc0, 0x01, 0xf0, 0x00);
  FINISH(t);
}

TEST(mul_e16) {
  sewt *t = sewt_new(4, E16, 4);
  SETV(t, 1, 16, 0x8000, 0xffff, 0xffff, 0x1234);
  SETV(t, 2, 16, 0x8000, 0x0002, 0xffff, 0x0100);
  op(t, enc(VT_INSN_VMUL_VV, 3, 1, 2, 1));
  op(t, enc(VT_INSN_VMULH_VV, 4, 1, 2, 1));
  op(t, enc(VT_INSN_VMULHU_VV, 5, 1, 2, 1));
  op(t, enc(VT_INSN_VMULHSU_VV, 6, 1, 2, 1));
  run(t);
  EXPECT(t, 3, 16, 0x0000, 0xfffe, 0x0001, 0x3400);
  EXPECT(t, 4, 16, 0x4000, 0xffff, 0x0000, 0x0012);
  EXPECT(t, 5, 16, 0x4000, 0x0001, 0xfffe, 0x0012);
  EXPECT(t, 6, 16, 0xc000, 0xffff, 0xffff, 0x0012);
  FINISH(t);
}

/* division by zero and the signed overflow case */
TEST(div_rem_e8) {
  sewt *t = sewt_new(8, E8, 8);
  SETV(t, 1, 8, 0x80, 0x80, 0x07, 0xf9, 0x07, 0xf9, 0x05, 0xff);
  SETV(t, 2, 8, 0xff, 0x00, 0x02, 0x02, 0xfe, 0xfe, 0x00, 0x02);
  op(t, enc(VT_INSN_VDIV_VV, 3, 1, 2, 1));
  op(t, enc(VT_INSN_VREM_VV, 4, 1, 2, 1));
  op(t, enc(VT_INSN_VDIVU_VV, 5, 1, 2, 1));
  op(t, enc(VT_INSN_VREMU_VV, 6, 1, 2, 1));
  run(t);
  EXPECT(t, 3, 8, 0x80, 0xff, 0x03, 0xfd, 0xfd, 0x03, 0xff, 0x00);
  EXPECT(t, 4, 8, 0x00, 0x80, 0x01, 0xff, 0x01, 0xff, 0x05, 0xff);
  EXPECT(t, 5, 8, 0x00, 0xff, 0x03, 0x7c, 0x00, 0x00, 0xff, 0x7f);
  EXPECT(t, 6, 8, 0x80, 0x80, 0x01, 0x01, 0x07, 0xf9, 0x05, 0x01);
  FINISH(t);
}

TEST(div_rem_e16) {
  sewt *t = sewt_new(4, E16, 4);
  SETV(t, 1, 16, 0x8000, 0x8000, 0xfff9, 0x1234);
  SETV(t, 2, 16, 0xffff, 0x0000, 0x0002, 0x0100);
  t->x[0] = 0x10000; /* e16: 0 */
  op(t, enc(VT_INSN_VDIV_VV, 3, 1, 2, 1));
  op(t, enc(VT_INSN_VREM_VV, 4, 1, 2, 1));
  op(t, enc(VT_INSN_VDIVU_VX, 5, 1, A0, 1));
  op(t, enc(VT_INSN_VREMU_VV, 6, 1, 2, 1));
  run(t);
  EXPECT(t, 3, 16, 0x8000, 0xffff, 0xfffd, 0x0012);
  EXPECT(t, 4, 16, 0x0000, 0x8000, 0xffff, 0x0034);
  EXPECT(t, 5, 16, 0xffff, 0xffff, 0xffff, 0xffff);
  EXPECT(t, 6, 16, 0x8000, 0x8000, 0x0001, 0x0034);
  FINISH(t);
}

TEST(multiply_add_e8) {
  sewt *t = sewt_new(8, E8, 8);
  SETV(t, 1, 8, 0x03, 0x55, 0x02, 0x01, 0xff, 0x10, 0x01, 0x40); /* vs2 */
  SETV(t, 2, 8, 0x02, 0x03, 0x80, 0x7f, 0xff, 0x10, 0x11, 0x05); /* vs1 */
  for (unsigned r = 3; r <= 6; r++) SETV(t, r, 8, 0x10, 0xff, 0x80, 0x7f, 0x00, 0x01, 0x20, 0xfe);
  op(t, enc(VT_INSN_VMACC_VV, 3, 2, 1, 1));
  op(t, enc(VT_INSN_VNMSAC_VV, 4, 2, 1, 1));
  op(t, enc(VT_INSN_VMADD_VV, 5, 2, 1, 1));
  op(t, enc(VT_INSN_VNMSUB_VV, 6, 2, 1, 1));
  run(t);
  EXPECT(t, 3, 8, 0x16, 0xfe, 0x80, 0xfe, 0x01, 0x01, 0x31, 0x3e);
  EXPECT(t, 4, 8, 0x0a, 0x00, 0x80, 0x00, 0xff, 0x01, 0x0f, 0xbe);
  EXPECT(t, 5, 8, 0x23, 0x52, 0x02, 0x02, 0xff, 0x20, 0x21, 0x36);
  EXPECT(t, 6, 8, 0xe3, 0x58, 0x02, 0x00, 0xff, 0x00, 0xe1, 0x4a);
  FINISH(t);
}

TEST(multiply_add_e16_vx) {
  sewt *t = sewt_new(4, E16, 4);
  SETV(t, 1, 16, 0x0003, 0x8000, 0xffff, 0x0100); /* vs2 */
  t->x[0] = 0x30002;                               /* e16: 2 */
  for (unsigned r = 3; r <= 4; r++) SETV(t, r, 16, 0x0010, 0x0001, 0x7fff, 0xff00);
  op(t, enc(VT_INSN_VMACC_VX, 3, A0, 1, 1));
  op(t, enc(VT_INSN_VMADD_VX, 4, A0, 1, 1));
  run(t);
  EXPECT(t, 3, 16, 0x0016, 0x0001, 0x7ffd, 0x0100);
  EXPECT(t, 4, 16, 0x0023, 0x8002, 0xfffd, 0xff00);
  FINISH(t);
}

/* saturation sets vxsat; saturating elements that are masked off
 * (SIMT mask) do not */
TEST(saturating_e8) {
  sewt *t = sewt_new(8, E8, 8);
  SETV(t, 1, 8, 0xf0, 0x7f, 0x80, 0x01, 0x10, 0x20, 0x30, 0x40);
  SETV(t, 2, 8, 0x20, 0x01, 0xff, 0x02, 0x01, 0x01, 0x01, 0x01);
  op(t, enc(VT_INSN_VSADDU_VV, 3, 1, 2, 1));
  op(t, enc(VT_INSN_VSADD_VV, 4, 1, 2, 1));
  op(t, enc(VT_INSN_VSSUBU_VV, 5, 1, 2, 1));
  op(t, enc(VT_INSN_VSSUB_VV, 6, 1, 2, 1));
  run(t);
  EXPECT(t, 3, 8, 0xff, 0x80, 0xff, 0x03, 0x11, 0x21, 0x31, 0x41);
  EXPECT(t, 4, 8, 0x10, 0x7f, 0x80, 0x03, 0x11, 0x21, 0x31, 0x41);
  EXPECT(t, 5, 8, 0xd0, 0x7e, 0x00, 0x00, 0x0f, 0x1f, 0x2f, 0x3f);
  EXPECT(t, 6, 8, 0xd0, 0x7e, 0x81, 0xff, 0x0f, 0x1f, 0x2f, 0x3f);
  CHECK_EQ_U32(st, t->vxsat, 1);
  FINISH(t);

  /* each instruction alone: which ones saturate */
  const struct {
    vt_insn_id id;
    uint32_t sat;
  } each[] = {{VT_INSN_VSADDU_VV, 1}, {VT_INSN_VSADD_VV, 1}, {VT_INSN_VSSUBU_VV, 1}, {VT_INSN_VSSUB_VV, 0}};
  for (unsigned k = 0; k < 4; k++) {
    t = sewt_new(8, E8, 8);
    SETV(t, 1, 8, 0xf0, 0x7f, 0x80, 0x01, 0x10, 0x20, 0x30, 0x40);
    SETV(t, 2, 8, 0x20, 0x01, 0xff, 0x02, 0x01, 0x01, 0x01, 0x01);
    op(t, enc(each[k].id, 3, 1, 2, 1));
    run(t);
    CHECK_EQ_U32(st, t->vxsat, each[k].sat);
    memset(t->cov[3], 1, VB); /* v3's values checked above */
    FINISH(t);
  }

  /* v0.t: elements 3..7 active; the saturating elements 0..2 are off */
  t = sewt_new(8, E8, 8);
  SETV(t, 1, 8, 0xf0, 0x7f, 0x80, 0x01, 0x10, 0x20, 0x30, 0x40);
  SETV(t, 2, 8, 0x20, 0x01, 0xff, 0x02, 0x01, 0x01, 0x01, 0x01);
  SETV(t, 0, 8, 0xf8);
  op(t, enc(VT_INSN_VSADDU_VV, 3, 1, 2, 0));
  op(t, enc(VT_INSN_VSADD_VV, 4, 1, 2, 0));
  run(t);
  EXPECT_M(t, 3, 8, 0xf8, 0, 0, 0, 0x03, 0x11, 0x21, 0x31, 0x41);
  EXPECT_M(t, 4, 8, 0xf8, 0, 0, 0, 0x03, 0x11, 0x21, 0x31, 0x41);
  CHECK_EQ_U32(st, t->vxsat, 0);
  FINISH(t);
}

TEST(saturating_e16) {
  sewt *t = sewt_new(4, E16, 4);
  SETV(t, 1, 16, 0x7fff, 0x8000, 0xfff0, 0x0001);
  SETV(t, 2, 16, 0x0001, 0x0001, 0x0020, 0xffff);
  op(t, enc(VT_INSN_VSADD_VV, 3, 1, 2, 1));
  op(t, enc(VT_INSN_VSSUB_VV, 4, 1, 2, 1));
  op(t, enc(VT_INSN_VSADDU_VI, 5, 1, -1, 1)); /* + 0xffff */
  op(t, enc(VT_INSN_VSSUBU_VV, 6, 1, 2, 1));
  run(t);
  EXPECT(t, 3, 16, 0x7fff, 0x8001, 0x0010, 0x0000);
  EXPECT(t, 4, 16, 0x7ffe, 0x8000, 0xffd0, 0x0002);
  EXPECT(t, 5, 16, 0xffff, 0xffff, 0xffff, 0xffff);
  EXPECT(t, 6, 16, 0x7ffe, 0x7fff, 0xffd0, 0x0000);
  CHECK_EQ_U32(st, t->vxsat, 1);
  FINISH(t);
}

/* vaadd[u]/vasub[u] under each vxrm (rnu, rne, rdn, rod) */
TEST(averaging_e8) {
  static const uint32_t aadd[4][8] = {
      {4, 3, 0xff, 0xff, 0x7f, 0x80, 1, 0x00},
      {4, 2, 0xfe, 0xff, 0x7f, 0x80, 0, 0x00},
      {3, 2, 0xfe, 0xff, 0x7f, 0x80, 0, 0xff},
      {3, 3, 0xff, 0xff, 0x7f, 0x80, 1, 0xff},
  };
  static const uint32_t aaddu[4][8] = {
      {4, 3, 0xff, 0xff, 0x7f, 0x80, 1, 0x80},
      {4, 2, 0xfe, 0xff, 0x7f, 0x80, 0, 0x80},
      {3, 2, 0xfe, 0xff, 0x7f, 0x80, 0, 0x7f},
      {3, 3, 0xff, 0xff, 0x7f, 0x80, 1, 0x7f},
  };
  static const uint32_t asub[4][8] = {
      {2, 1, 1, 0, 0, 0, 0x00, 0x81},
      {2, 0, 0, 0, 0, 0, 0x00, 0x80},
      {1, 0, 0, 0, 0, 0, 0xff, 0x80},
      {1, 1, 1, 0, 0, 0, 0xff, 0x81},
  };
  static const uint32_t asubu[4][8] = {
      {2, 1, 1, 0, 0, 0, 0x00, 1},
      {2, 0, 0, 0, 0, 0, 0x00, 0},
      {1, 0, 0, 0, 0, 0, 0xff, 0},
      {1, 1, 1, 0, 0, 0, 0xff, 1},
  };
  for (unsigned rm = 0; rm < 4; rm++) {
    sewt *t = sewt_new(8, E8, 8);
    t->vxrm = rm;
    SETV(t, 1, 8, 0x05, 0x03, 0xff, 0xff, 0x7f, 0x80, 0x00, 0x80);
    SETV(t, 2, 8, 0x02, 0x02, 0xfe, 0xff, 0x7f, 0x80, 0x01, 0x7f);
    op(t, enc(VT_INSN_VAADD_VV, 3, 1, 2, 1));
    op(t, enc(VT_INSN_VAADDU_VV, 4, 1, 2, 1));
    op(t, enc(VT_INSN_VASUB_VV, 5, 1, 2, 1));
    op(t, enc(VT_INSN_VASUBU_VV, 6, 1, 2, 1));
    run(t);
    expect_m(st, t, 3, 8, aadd[rm], 8, 0xff, __LINE__);
    expect_m(st, t, 4, 8, aaddu[rm], 8, 0xff, __LINE__);
    expect_m(st, t, 5, 8, asub[rm], 8, 0xff, __LINE__);
    expect_m(st, t, 6, 8, asubu[rm], 8, 0xff, __LINE__);
    CHECK_EQ_U32(st, t->vxsat, 0);
    FINISH(t);
  }
}

TEST(averaging_e16) {
  static const uint32_t want[4][4] = {
      {0x4001, 0xc001, 3, 1},
      {0x4000, 0xc001, 2, 0},
      {0x4000, 0xc001, 2, 0},
      {0x4001, 0xc001, 3, 1},
  };
  for (unsigned rm = 0; rm < 4; rm++) {
    sewt *t = sewt_new(4, E16, 4);
    t->vxrm = rm;
    SETV(t, 1, 16, 0x7fff, 0x8000, 0x0003, 0xffff);
    t->x[0] = 0x10002; /* e16: 2 */
    op(t, enc(VT_INSN_VAADD_VX, 3, 1, A0, 1));
    run(t);
    expect_m(st, t, 3, 16, want[rm], 4, 0xf, __LINE__);
    FINISH(t);
  }
}

/* vssrl/vssra: shift amount 10 & 7 = 2, rounding by vxrm */
TEST(scaling_shifts_e8) {
  static const uint32_t srl[4][8] = {
      {3, 3, 3, 4, 0x3d, 0x40, 0x20, 0x20},
      {3, 2, 3, 4, 0x3d, 0x40, 0x20, 0x20},
      {2, 2, 3, 3, 0x3d, 0x3f, 0x20, 0x1f},
      {3, 3, 3, 3, 0x3d, 0x3f, 0x20, 0x1f},
  };
  static const uint32_t sra[4][8] = {
      {3, 3, 3, 4, 0xfd, 0x00, 0xe0, 0x20},
      {3, 2, 3, 4, 0xfd, 0x00, 0xe0, 0x20},
      {2, 2, 3, 3, 0xfd, 0xff, 0xe0, 0x1f},
      {3, 3, 3, 3, 0xfd, 0xff, 0xe0, 0x1f},
  };
  for (unsigned rm = 0; rm < 4; rm++) {
    sewt *t = sewt_new(8, E8, 8);
    t->vxrm = rm;
    SETV(t, 1, 8, 0x0b, 0x0a, 0x0c, 0x0e, 0xf5, 0xff, 0x80, 0x7f);
    t->x[0] = 10;
    op(t, enc(VT_INSN_VSSRL_VX, 3, 1, A0, 1));
    op(t, enc(VT_INSN_VSSRA_VX, 4, 1, A0, 1));
    op(t, enc(VT_INSN_VSSRA_VI, 5, 1, 2, 1));
    run(t);
    expect_m(st, t, 3, 8, srl[rm], 8, 0xff, __LINE__);
    expect_m(st, t, 4, 8, sra[rm], 8, 0xff, __LINE__);
    expect_m(st, t, 5, 8, sra[rm], 8, 0xff, __LINE__);
    CHECK_EQ_U32(st, t->vxsat, 0);
    FINISH(t);
  }
}

TEST(scaling_shifts_e16) {
  static const uint32_t want[4][2] = {{0xc001, 0x0002}, {0xc000, 0x0002}, {0xc000, 0x0001}, {0xc001, 0x0001}};
  for (unsigned rm = 0; rm < 4; rm++) {
    sewt *t = sewt_new(2, E16, 2);
    t->vxrm = rm;
    SETV(t, 1, 16, 0x8001, 0x0003);
    op(t, enc(VT_INSN_VSSRA_VI, 3, 1, 17, 1)); /* & 15: 1 */
    run(t);
    expect_m(st, t, 3, 16, want[rm], 2, 0x3, __LINE__);
    FINISH(t);
  }
}

TEST(vsmul_e8_e16) {
  static const uint32_t want[4][8] = {
      {0x7f, 0x20, 1, 0xe0, 0x7e, 0, 2, 0x81},
      {0x7f, 0x20, 0, 0xe0, 0x7e, 0, 2, 0x81},
      {0x7f, 0x20, 0, 0xe0, 0x7e, 0, 2, 0x81},
      {0x7f, 0x20, 1, 0xe0, 0x7f, 1, 3, 0x81},
  };
  for (unsigned rm = 0; rm < 4; rm++) {
    sewt *t = sewt_new(8, E8, 8);
    t->vxrm = rm;
    SETV(t, 1, 8, 0x80, 0x40, 0x40, 0xc0, 0x7f, 0x01, 0x03, 0x80);
    SETV(t, 2, 8, 0x80, 0x40, 0x01, 0x40, 0x7f, 0x01, 0x60, 0x7f);
    op(t, enc(VT_INSN_VSMUL_VV, 3, 1, 2, 1));
    run(t);
    expect_m(st, t, 3, 8, want[rm], 8, 0xff, __LINE__);
    CHECK_EQ_U32(st, t->vxsat, 1);
    FINISH(t);
  }
  sewt *t = sewt_new(4, E16, 4);
  SETV(t, 1, 16, 0x8000, 0x4000, 0xffff, 0x8000);
  SETV(t, 2, 16, 0x8000, 0x4000, 0x0001, 0x7fff);
  op(t, enc(VT_INSN_VSMUL_VV, 3, 1, 2, 1));
  run(t);
  EXPECT(t, 3, 16, 0x7fff, 0x2000, 0x0000, 0x8001);
  CHECK_EQ_U32(st, t->vxsat, 1);
  FINISH(t);
  /* no saturation: vxsat stays 0 */
  t = sewt_new(4, E16, 4);
  SETV(t, 1, 16, 0x4000, 0x4000, 0xffff, 0x8000);
  t->x[0] = 0x4000;
  op(t, enc(VT_INSN_VSMUL_VX, 3, 1, A0, 1));
  run(t);
  EXPECT(t, 3, 16, 0x2000, 0x2000, 0x0000, 0xc000);
  CHECK_EQ_U32(st, t->vxsat, 0);
  FINISH(t);
}

/* ---------------- masking, vl ---------------- */

/* SIMT mask (lanes 0..4) and v0.t together; vl = 6 < numt = 8 */
TEST(masks_and_vl_e16) {
  sewt *t = sewt_new(8, E16, 6);
  t->active = 5;
  SETV(t, 0, 8, 0x3b); /* v0 bits 0,1,3,4,5 */
  SETV(t, 1, 16, 1, 2, 3, 4, 5, 6, 7, 8);
  SETV(t, 2, 16, 0x100, 0x200, 0x300, 0x400, 0x500, 0x600, 0x700, 0x800);
  op(t, enc(VT_INSN_VADD_VV, 3, 1, 2, 0)); /* v0.t */
  op(t, enc(VT_INSN_VADD_VV, 4, 1, 2, 1));
  op(t, enc(VT_INSN_VID_V, 5, 1));
  run(t);
  EXPECT_M(t, 3, 16, 0x1b, 0x101, 0x202, 0, 0x404, 0x505, 0, 0, 0);
  EXPECT_M(t, 4, 16, 0x1f, 0x101, 0x202, 0x303, 0x404, 0x505, 0, 0, 0);
  EXPECT_M(t, 5, 16, 0x1f, 0, 1, 2, 3, 4, 0, 0, 0);
  FINISH(t);
}

TEST(vid_vl_e8) {
  sewt *t = sewt_new(8, E8, 5);
  op(t, enc(VT_INSN_VID_V, 3, 1));
  run(t);
  EXPECT_M(t, 3, 8, 0x1f, 0, 1, 2, 3, 4, 0, 0, 0);
  FINISH(t);
}

/* ---------------- moves ---------------- */

TEST(moves_e8_e16) {
  sewt *t = sewt_new(8, E8, 8);
  t->active = 6;
  SETV(t, 1, 8, 0x11, 0x22, 0x33, 0x44, 0x55, 0x80, 0x77, 0x88);
  t->x[1] = 0x1234;
  op(t, enc(VT_INSN_VMV_X_S, A0, 1)); /* highest active lane: 5 */
  op(t, enc(VT_INSN_VMV_S_X, 3, A1)); /* Ventus: = vmv.v.x */
  op(t, enc(VT_INSN_VMV_V_I, 4, -16));
  op(t, enc(VT_INSN_VMV_V_V, 5, 1));
  run(t);
  CHECK_EQ_U32(st, t->a0, 0xffffff80);
  EXPECT_M(t, 3, 8, 0x3f, 0x34, 0x34, 0x34, 0x34, 0x34, 0x34, 0, 0);
  EXPECT_M(t, 4, 8, 0x3f, 0xf0, 0xf0, 0xf0, 0xf0, 0xf0, 0xf0, 0, 0);
  EXPECT_M(t, 5, 8, 0x3f, 0x11, 0x22, 0x33, 0x44, 0x55, 0x80, 0, 0);
  FINISH(t);

  t = sewt_new(4, E16, 3);
  SETV(t, 1, 16, 0x8000, 0x1234, 0x7ffe, 0xffff);
  t->x[1] = 0xfedc8765;
  op(t, enc(VT_INSN_VMV_X_S, A0, 1)); /* vl = 3: element 2 */
  op(t, enc(VT_INSN_VMV_V_X, 3, A1));
  run(t);
  CHECK_EQ_U32(st, t->a0, 0x7ffe);
  EXPECT_M(t, 3, 16, 0x7, 0x8765, 0x8765, 0x8765, 0);
  FINISH(t);
}

/* vmerge ignores the SIMT mask (isa.md 1.4), selects by v0 */
TEST(merge_e8) {
  sewt *t = sewt_new(8, E8, 6);
  t->active = 2;
  SETV(t, 0, 8, 0x2d); /* 0b101101 */
  SETV(t, 1, 8, 1, 2, 3, 4, 5, 6, 7, 8);
  SETV(t, 2, 8, 0x10, 0x20, 0x30, 0x40, 0x50, 0x60, 0x70, 0x80);
  t->x[0] = 0x3ff;
  op(t, enc(VT_INSN_VMERGE_VVM, 3, 1, 2));
  op(t, enc(VT_INSN_VMERGE_VXM, 4, 1, A0));
  op(t, enc(VT_INSN_VMERGE_VIM, 5, 1, -5));
  run(t);
  EXPECT_M(t, 3, 8, 0x3f, 0x10, 2, 0x30, 0x40, 5, 0x60, 0, 0);
  EXPECT_M(t, 4, 8, 0x3f, 0xff, 2, 0xff, 0xff, 5, 0xff, 0, 0);
  EXPECT_M(t, 5, 8, 0x3f, 0xfb, 2, 0xfb, 0xfb, 5, 0xfb, 0, 0);
  FINISH(t);
}

/* add/subtract with carry: carries in from v0, carries out as mask bits */
TEST(carry_e8) {
  sewt *t = sewt_new(4, E8, 4);
  SETV(t, 0, 32, 0xffff0006); /* carries 0,1,1,0 */
  SETV(t, 1, 8, 0xff, 0xff, 0x7f, 0x00);
  SETV(t, 2, 8, 0x01, 0x00, 0x80, 0x00);
  SETV(t, 7, 32, 0xabcdef00);
  SETV(t, 8, 32, 0x12345678);
  op(t, enc(VT_INSN_VADC_VVM, 3, 1, 2));
  op(t, enc(VT_INSN_VSBC_VVM, 4, 1, 2));
  op(t, enc(VT_INSN_VMADC_VVM, 5, 1, 2));
  op(t, enc(VT_INSN_VMSBC_VVM, 6, 1, 2));
  op(t, enc(VT_INSN_VMADC_VV, 7, 1, 2));
  op(t, enc(VT_INSN_VMSBC_VX, 8, 1, A0)); /* a0 = 0 */
  run(t);
  EXPECT(t, 3, 8, 0x00, 0x00, 0x00, 0x00);
  EXPECT(t, 4, 8, 0xfe, 0xfe, 0xfe, 0x00);
  /* bits 0..3 written, the others unchanged */
  uint32_t v5 = elem(t->v, 4, 5, 32, 0), v6 = elem(t->v, 4, 6, 32, 0);
  EXPECT(t, 5, 32, (v5 & ~0xfu) | 0x7);
  EXPECT(t, 6, 32, (v6 & ~0xfu) | 0x4);
  EXPECT(t, 7, 32, 0xabcdef01);
  EXPECT(t, 8, 32, 0x12345670);
  FINISH(t);
}

/* vadc at SEW = 32 too: lanes whose carry-in is 0 are written */
TEST(carry_e32) {
  sewt *t = sewt_new(4, E32, 4);
  SETV(t, 0, 32, 0x6);
  SETV(t, 1, 32, 0xffffffff, 0xffffffff, 5, 7);
  SETV(t, 2, 32, 1, 0, 5, 1);
  op(t, enc(VT_INSN_VADC_VVM, 3, 1, 2));
  op(t, enc(VT_INSN_VSBC_VVM, 4, 1, 2));
  run(t);
  EXPECT(t, 3, 32, 0, 0, 11, 8);
  EXPECT(t, 4, 32, 0xfffffffe, 0xfffffffe, 0xffffffff, 6);
  FINISH(t);
}

TEST(extensions_e16) {
  sewt *t = sewt_new(8, E16, 8);
  SETV(t, 1, 8, 0x80, 0x7f, 0xff, 0x00, 0x01, 0xfe, 0x12, 0x9a);
  op(t, enc(VT_INSN_VZEXT_VF2, 3, 1, 1));
  op(t, enc(VT_INSN_VSEXT_VF2, 4, 1, 1));
  run(t);
  EXPECT(t, 3, 16, 0x80, 0x7f, 0xff, 0x00, 0x01, 0xfe, 0x12, 0x9a);
  EXPECT(t, 4, 16, 0xff80, 0x7f, 0xffff, 0x00, 0x01, 0xfffe, 0x12, 0xff9a);
  FINISH(t);
  /* sources narrower than 8 bits do not exist */
  t = sewt_new(8, E8, 8);
  op(t, enc(VT_INSN_VZEXT_VF2, 3, 1, 1));
  run(t);
  EXPECT_ERROR(t, "vzext.vf2 at SEW = 8");
  t = sewt_new(8, E16, 8);
  op(t, enc(VT_INSN_VSEXT_VF4, 3, 1, 1));
  run(t);
  EXPECT_ERROR(t, "vsext.vf4 at SEW = 16");
  t = sewt_new(8, E16, 8);
  op(t, enc(VT_INSN_VZEXT_VF8, 3, 1, 1));
  run(t);
  EXPECT_ERROR(t, "vzext.vf8 at SEW = 16");
}

/* ---------------- widening ---------------- */

/* SEW 8 -> 16: element i of vd at bytes 2i, 2i+1; numt = 8, so the 2*SEW
 * destination (EMUL 2) fills half of vd and leaves vd+1 alone */
TEST(widening_add_mul_e8) {
  sewt *t = sewt_new(8, E8, 32);
  SETV(t, 1, 8, 0xff, 0x80, 0x7f, 0x01, 0x00, 0xfe, 0x10, 0x81);
  SETV(t, 2, 8, 0xff, 0x80, 0x7f, 0xff, 0x01, 0x02, 0x10, 0x7f);
  op(t, enc(VT_INSN_VWADDU_VV, 3, 1, 2, 1));
  op(t, enc(VT_INSN_VWADD_VV, 4, 1, 2, 1));
  op(t, enc(VT_INSN_VWSUBU_VV, 5, 1, 2, 1));
  op(t, enc(VT_INSN_VWSUB_VV, 6, 1, 2, 1));
  op(t, enc(VT_INSN_VWMULU_VV, 7, 1, 2, 1));
  op(t, enc(VT_INSN_VWMUL_VV, 8, 1, 2, 1));
  run(t);
  EXPECT(t, 3, 16, 0x1fe, 0x100, 0xfe, 0x100, 0x01, 0x100, 0x20, 0x100);
  EXPECT(t, 4, 16, 0xfffe, 0xff00, 0x00fe, 0x0000, 0x0001, 0x0000, 0x0020, 0x0000);
  EXPECT(t, 5, 16, 0x0000, 0x0000, 0x0000, 0xff02, 0xffff, 0x00fc, 0x0000, 0x0002);
  EXPECT(t, 6, 16, 0x0000, 0x0000, 0x0000, 0x0002, 0xffff, 0xfffc, 0x0000, 0xff02);
  EXPECT(t, 7, 16, 0xfe01, 0x4000, 0x3f01, 0x00ff, 0x0000, 0x01fc, 0x0100, 0x3fff);
  EXPECT(t, 8, 16, 0x0001, 0x4000, 0x3f01, 0xffff, 0x0000, 0xfffc, 0x0100, 0xc0ff);
  FINISH(t);

  t = sewt_new(8, E8, 8);
  SETV(t, 1, 8, 0xff, 0x80, 0x7f, 0x01, 0x00, 0xfe, 0x10, 0x81);
  SETV(t, 2, 8, 0xff, 0x80, 0x7f, 0xff, 0x01, 0x02, 0x10, 0x7f);
  t->x[0] = 0x1ff; /* e8: 0xff */
  op(t, enc(VT_INSN_VWMULSU_VV, 3, 1, 2, 1));
  op(t, enc(VT_INSN_VWADDU_VX, 4, 1, A0, 1));
  op(t, enc(VT_INSN_VWADD_VX, 5, 1, A0, 1));
  op(t, enc(VT_INSN_VWSUBU_VX, 6, 1, A0, 1));
  op(t, enc(VT_INSN_VWMULSU_VX, 7, 1, A0, 1));
  run(t);
  EXPECT(t, 3, 16, 0xff01, 0xc000, 0x3f01, 0x00ff, 0x0000, 0xfffc, 0x0100, 0xc0ff);
  EXPECT(t, 4, 16, 0x1fe, 0x17f, 0x17e, 0x100, 0xff, 0x1fd, 0x10f, 0x180);
  EXPECT(t, 5, 16, 0xfffe, 0xff7f, 0x007e, 0x0000, 0xffff, 0xfffd, 0x000f, 0xff80);
  EXPECT(t, 6, 16, 0x0000, 0xff81, 0xff80, 0xff02, 0xff01, 0xffff, 0xff11, 0xff82);
  EXPECT(t, 7, 16, 0xff01, 0x8080, 0x7e81, 0x00ff, 0x0000, 0xfe02, 0x0ff0, 0x817f);
  FINISH(t);
}

/* .wv/.wx: vs2 is already 2*SEW wide */
TEST(widening_w_forms_e8) {
  sewt *t = sewt_new(8, E8, 8);
  SETV(t, 1, 16, 0x1000, 0xffff, 0x8000, 0x0001, 0x7fff, 0x0000, 0x1234, 0xff00);
  SETV(t, 2, 8, 0xff, 0x80, 0x7f, 0xff, 0x01, 0x02, 0x10, 0x7f);
  t->x[0] = 0xf80; /* e8: 0x80 */
  op(t, enc(VT_INSN_VWADDU_W_WV, 3, 1, 2, 1));
  op(t, enc(VT_INSN_VWADD_W_WV, 4, 1, 2, 1));
  op(t, enc(VT_INSN_VWSUBU_W_WV, 5, 1, 2, 1));
  op(t, enc(VT_INSN_VWSUB_W_WV, 6, 1, 2, 1));
  op(t, enc(VT_INSN_VWADD_W_WX, 7, 1, A0, 1));
  op(t, enc(VT_INSN_VWSUBU_W_WX, 8, 1, A0, 1));
  run(t);
  EXPECT(t, 3, 16, 0x10ff, 0x007f, 0x807f, 0x0100, 0x8000, 0x0002, 0x1244, 0xff7f);
  EXPECT(t, 4, 16, 0x0fff, 0xff7f, 0x807f, 0x0000, 0x8000, 0x0002, 0x1244, 0xff7f);
  EXPECT(t, 5, 16, 0x0f01, 0xff7f, 0x7f81, 0xff02, 0x7ffe, 0xfffe, 0x1224, 0xfe81);
  EXPECT(t, 6, 16, 0x1001, 0x007f, 0x7f81, 0x0002, 0x7ffe, 0xfffe, 0x1224, 0xfe81);
  EXPECT(t, 7, 16, 0x0f80, 0xff7f, 0x7f80, 0xff81, 0x7f7f, 0xff80, 0x11b4, 0xfe80);
  EXPECT(t, 8, 16, 0x0f80, 0xff7f, 0x7f80, 0xff81, 0x7f7f, 0xff80, 0x11b4, 0xfe80);
  FINISH(t);
}

TEST(widening_macc_e8) {
  sewt *t = sewt_new(8, E8, 8);
  SETV(t, 1, 8, 0xff, 0x80, 0x7f, 0x01, 0x00, 0xfe, 0x10, 0x81); /* vs2 */
  SETV(t, 2, 8, 0xff, 0x80, 0x7f, 0xff, 0x01, 0x02, 0x10, 0x7f); /* vs1 */
  for (unsigned r = 3; r <= 6; r++)
    SETV(t, r, 16, 0x0001, 0x1000, 0xffff, 0x8000, 0x0000, 0x0010, 0x7fff, 0x0002);
  t->x[0] = 0x80;
  op(t, enc(VT_INSN_VWMACCU_VV, 3, 2, 1, 1));
  op(t, enc(VT_INSN_VWMACC_VV, 4, 2, 1, 1));
  op(t, enc(VT_INSN_VWMACCSU_VV, 5, 2, 1, 1));
  op(t, enc(VT_INSN_VWMACCUS_VX, 6, A0, 1, 1));
  run(t);
  EXPECT(t, 3, 16, 0xfe02, 0x5000, 0x3f00, 0x80ff, 0x0000, 0x020c, 0x80ff, 0x4001);
  EXPECT(t, 4, 16, 0x0002, 0x5000, 0x3f00, 0x7fff, 0x0000, 0x000c, 0x80ff, 0xc101);
  EXPECT(t, 5, 16, 0xff02, 0xd000, 0x3f00, 0x7fff, 0x0000, 0x020c, 0x80ff, 0x4001);
  EXPECT(t, 6, 16, 0xff81, 0xd000, 0x3f7f, 0x8080, 0x0000, 0xff10, 0x87ff, 0xc082);
  FINISH(t);
}

/* SEW 16 -> 32, with LMUL = 2: the destination group is 4 registers; with
 * numt = 4 the active elements 0..3 fill vd and the rest stays */
TEST(widening_e16_groups) {
  sewt *t = sewt_new(4, E16 | M2, 8);
  SETV(t, 2, 16, 0x8000, 0xffff, 0x7fff, 0x0002);
  SETV(t, 1, 16, 0xffff, 0xffff, 0x0001, 0x8000);
  t->x[0] = 0x8000;
  op(t, enc(VT_INSN_VWMUL_VX, 4, 2, A0, 1));
  op(t, enc(VT_INSN_VWADDU_VV, 8, 2, 1, 1));
  run(t);
  EXPECT(t, 4, 32, 0x40000000, 0x00008000, 0xc0008000, 0xffff0000);
  EXPECT(t, 8, 32, 0x17fff, 0x1fffe, 0x8000, 0x8002);
  FINISH(t);
}

TEST(widening_reductions_e8) {
  sewt *t = sewt_new(8, E8, 8);
  SETV(t, 1, 8, 0xff, 0x80, 0x7f, 0x01, 0x00, 0xfe, 0x10, 0x81);
  SETV(t, 2, 16, 0x1000);
  op(t, enc(VT_INSN_VWREDSUMU_VS, 3, 1, 2, 1));
  op(t, enc(VT_INSN_VWREDSUM_VS, 4, 1, 2, 1));
  run(t);
  EXPECT(t, 3, 16, 0x138e);
  EXPECT(t, 4, 16, 0x0f8e);
  FINISH(t);
  /* lanes 0..3 only */
  t = sewt_new(8, E8, 8);
  t->active = 4;
  SETV(t, 1, 8, 0xff, 0x80, 0x7f, 0x01, 0x00, 0xfe, 0x10, 0x81);
  SETV(t, 2, 16, 0x1000);
  op(t, enc(VT_INSN_VWREDSUMU_VS, 3, 1, 2, 1));
  op(t, enc(VT_INSN_VWREDSUM_VS, 4, 1, 2, 1));
  run(t);
  EXPECT(t, 3, 16, 0x11ff);
  EXPECT(t, 4, 16, 0x0fff);
  FINISH(t);
}

/* ---------------- narrowing ---------------- */

/* shift amounts use log2(2*SEW) = 4 bits at SEW 8 */
TEST(narrowing_shifts_e8) {
  sewt *t = sewt_new(8, E8, 8);
  SETV(t, 1, 16, 0x1234, 0x8000, 0xff80, 0x00ff, 0x7fff, 0x0100, 0xabcd, 0xfffe);
  SETV(t, 2, 8, 4, 8, 1, 0, 15, 16, 17, 31);
  t->x[0] = 0x14; /* & 15: 4 */
  op(t, enc(VT_INSN_VNSRL_WV, 3, 1, 2, 1));
  op(t, enc(VT_INSN_VNSRA_WV, 4, 1, 2, 1));
  op(t, enc(VT_INSN_VNSRL_WX, 5, 1, A0, 1));
  op(t, enc(VT_INSN_VNSRA_WI, 6, 1, 12, 1));
  run(t);
  EXPECT(t, 3, 8, 0x23, 0x80, 0xc0, 0xff, 0x00, 0x00, 0xe6, 0x01);
  EXPECT(t, 4, 8, 0x23, 0x80, 0xc0, 0xff, 0x00, 0x00, 0xe6, 0xff);
  EXPECT(t, 5, 8, 0x23, 0x00, 0xf8, 0x0f, 0xff, 0x10, 0xbc, 0xff);
  EXPECT(t, 6, 8, 0x01, 0xf8, 0xff, 0x00, 0x07, 0x00, 0xfa, 0xff);
  CHECK_EQ_U32(st, t->vxsat, 0);
  FINISH(t);
}

TEST(narrowing_clip_e8) {
  static const uint32_t clipu[4][8] = {
      {0x80, 0x80, 0xc0, 0xff, 0xff, 0x0c, 0x0c, 0xff},
      {0x80, 0x80, 0xc0, 0xff, 0xff, 0x0c, 0x0c, 0xff},
      {0x7f, 0x80, 0xc0, 0xff, 0xff, 0x0b, 0x0c, 0xff},
      {0x7f, 0x80, 0xc0, 0xff, 0xff, 0x0b, 0x0c, 0xff},
  };
  static const uint32_t clip[4][8] = {
      {0x7f, 0x80, 0x80, 0x7f, 0x41, 0xff, 3, 0x80},
      {0x7f, 0x80, 0x80, 0x7f, 0x40, 0xfe, 2, 0x80},
      {0x7f, 0x80, 0x80, 0x7f, 0x40, 0xfe, 2, 0x80},
      {0x7f, 0x80, 0x80, 0x7f, 0x41, 0xff, 3, 0x80},
  };
  for (unsigned rm = 0; rm < 4; rm++) {
    sewt *t = sewt_new(8, E8, 8);
    t->vxrm = rm;
    SETV(t, 1, 16, 0x00ff, 0x0100, 0x0180, 0x01ff, 0x1234, 0x0017, 0x0018, 0xffff);
    SETV(t, 2, 16, 0x00ff, 0xff00, 0xff7f, 0x007f, 0x0081, 0xfffd, 0x0005, 0x8000);
    SETV(t, 3, 8, 1, 1, 0, 0, 1, 1, 1, 16);
    op(t, enc(VT_INSN_VNCLIPU_WI, 4, 1, 1, 1));
    op(t, enc(VT_INSN_VNCLIP_WV, 5, 2, 3, 1));
    run(t);
    expect_m(st, t, 4, 8, clipu[rm], 8, 0xff, __LINE__);
    expect_m(st, t, 5, 8, clip[rm], 8, 0xff, __LINE__);
    CHECK_EQ_U32(st, t->vxsat, 1);
    FINISH(t);
  }
  /* vxsat only from active elements: element 1 would saturate, v0.t masks it */
  sewt *t = sewt_new(4, E8, 4);
  SETV(t, 0, 8, 0xd);
  SETV(t, 1, 16, 0x00fe, 0x1234, 0x0010, 0x0003);
  op(t, enc(VT_INSN_VNCLIPU_WI, 4, 1, 1, 0));
  run(t);
  EXPECT_M(t, 4, 8, 0xd, 0x7f, 0, 0x08, 0x02);
  CHECK_EQ_U32(st, t->vxsat, 0);
  FINISH(t);
}

TEST(narrowing_e16) {
  sewt *t = sewt_new(4, E16, 4);
  SETV(t, 1, 32, 0x12345678, 0x80000000, 0xfffe0000, 0x0001ffff);
  t->x[0] = 0x30; /* & 31: 16 */
  op(t, enc(VT_INSN_VNSRA_WX, 3, 1, A0, 1));
  op(t, enc(VT_INSN_VNCLIPU_WI, 4, 1, 0, 1));
  op(t, enc(VT_INSN_VNCLIP_WI, 5, 1, 8, 1));
  run(t);
  EXPECT(t, 3, 16, 0x1234, 0x8000, 0xfffe, 0x0001);
  EXPECT(t, 4, 16, 0xffff, 0xffff, 0xffff, 0xffff);
  EXPECT(t, 5, 16, 0x7fff, 0x8000, 0xfe00, 0x0200); /* rnu: 0x1ff.ff -> 0x200 */
  CHECK_EQ_U32(st, t->vxsat, 1);
  FINISH(t);
}

/* ---------------- reductions ---------------- */

TEST(reductions_e8) {
  sewt *t = sewt_new(8, E8, 8);
  SETV(t, 1, 8, 0xff, 0x80, 0x7f, 0x01, 0x00, 0xfe, 0x10, 0x81);
  SETV(t, 2, 8, 0x05);
  op(t, enc(VT_INSN_VREDSUM_VS, 3, 1, 2, 1));
  op(t, enc(VT_INSN_VREDMAXU_VS, 4, 1, 2, 1));
  op(t, enc(VT_INSN_VREDMAX_VS, 5, 1, 2, 1));
  op(t, enc(VT_INSN_VREDMINU_VS, 6, 1, 2, 1));
  op(t, enc(VT_INSN_VREDMIN_VS, 7, 1, 2, 1));
  op(t, enc(VT_INSN_VREDXOR_VS, 8, 1, 2, 1));
  run(t);
  EXPECT(t, 3, 8, 0x93);
  EXPECT(t, 4, 8, 0xff);
  EXPECT(t, 5, 8, 0x7f);
  EXPECT(t, 6, 8, 0x00);
  EXPECT(t, 7, 8, 0x80);
  EXPECT(t, 8, 8, 0x6b);
  FINISH(t);
  t = sewt_new(8, E8, 8);
  SETV(t, 1, 8, 0xff, 0x80, 0x7f, 0x01, 0x00, 0xfe, 0x10, 0x81);
  SETV(t, 2, 8, 0x05);
  SETV(t, 0, 8, 0xc5); /* elements 0, 2, 6, 7 */
  op(t, enc(VT_INSN_VREDAND_VS, 3, 1, 2, 1));
  op(t, enc(VT_INSN_VREDOR_VS, 4, 1, 2, 1));
  op(t, enc(VT_INSN_VREDSUM_VS, 5, 1, 2, 0));
  op(t, enc(VT_INSN_VREDMIN_VS, 6, 1, 2, 0));
  run(t);
  EXPECT(t, 3, 8, 0x00);
  EXPECT(t, 4, 8, 0xff);
  EXPECT(t, 5, 8, 0x14); /* 5 + 0xff + 0x7f + 0x10 + 0x81 = 0x214 */
  EXPECT(t, 6, 8, 0x81);
  FINISH(t);
}

TEST(reductions_e16) {
  sewt *t = sewt_new(4, E16, 4);
  SETV(t, 1, 16, 0x8000, 0x7fff, 0xffff, 0x0002);
  SETV(t, 2, 16, 0x0010);
  op(t, enc(VT_INSN_VREDSUM_VS, 3, 1, 2, 1));
  op(t, enc(VT_INSN_VREDMIN_VS, 4, 1, 2, 1));
  op(t, enc(VT_INSN_VREDMAXU_VS, 5, 1, 2, 1));
  run(t);
  EXPECT(t, 3, 16, 0x0010); /* 0x8000 + 0x7fff + 0xffff + 2 + 0x10 = 0x10010 */
  EXPECT(t, 4, 16, 0x8000);
  EXPECT(t, 5, 16, 0xffff);
  FINISH(t);
}

/* ---------------- slides, gathers ---------------- */

/* LMUL = 2 at SEW 8 with numt = 4: VLMAX = 32, register v2 holds elements
 * 0..15 of the group v2-v3, v3 elements 16..31 */
TEST(slides_gathers_e8_m2) {
  uint32_t src[32];
  for (unsigned i = 0; i < 32; i++) src[i] = 0xa0 + i;
  sewt *t = sewt_new(4, E8 | M2, 32);
  setv(t, 2, 8, src, 32);
  SETV(t, 6, 8, 0, 17, 31, 32);
  t->x[0] = 14;
  t->x[1] = 30;
  t->x[2] = 0x111; /* e8: 0x11 */
  op(t, enc(VT_INSN_VSLIDEDOWN_VX, 4, 2, A0, 1));
  op(t, enc(VT_INSN_VSLIDEDOWN_VX, 5, 2, A1, 1));
  op(t, enc(VT_INSN_VRGATHER_VV, 7, 2, 6, 1));
  op(t, enc(VT_INSN_VSLIDEUP_VI, 8, 2, 2, 1));
  run(t);
  EXPECT_M(t, 4, 8, 0xf, 0xae, 0xaf, 0xb0, 0xb1);
  EXPECT_M(t, 5, 8, 0xf, 0xbe, 0xbf, 0x00, 0x00);
  EXPECT_M(t, 7, 8, 0xf, 0xa0, 0xb1, 0xbf, 0x00);
  EXPECT_M(t, 8, 8, 0xc, 0, 0, 0xa0, 0xa1);
  FINISH(t);

  t = sewt_new(4, E8 | M2, 32);
  setv(t, 2, 8, src, 32);
  SETV(t, 6, 16, 16, 3, 40, 31); /* vrgatherei16 indices (e16) */
  t->x[0] = 20;
  t->x[2] = 0x111;
  op(t, enc(VT_INSN_VRGATHEREI16_VV, 4, 2, 6, 1));
  op(t, enc(VT_INSN_VRGATHER_VX, 5, 2, A0, 1));
  op(t, enc(VT_INSN_VRGATHER_VI, 7, 2, 31, 1));
  op(t, enc(VT_INSN_VSLIDE1UP_VX, 8, 2, A2, 1));
  run(t);
  EXPECT_M(t, 4, 8, 0xf, 0xb0, 0xa3, 0x00, 0xbf);
  EXPECT_M(t, 5, 8, 0xf, 0xb4, 0xb4, 0xb4, 0xb4);
  EXPECT_M(t, 7, 8, 0xf, 0xbf, 0xbf, 0xbf, 0xbf);
  EXPECT_M(t, 8, 8, 0xf, 0x11, 0xa0, 0xa1, 0xa2);
  FINISH(t);
}

TEST(slides_compress_e16) {
  sewt *t = sewt_new(4, E16, 3);
  SETV(t, 1, 16, 0x1111, 0x2222, 0x3333, 0x4444);
  SETV(t, 2, 8, 0x5); /* compress selects elements 0, 2 */
  t->x[0] = 0xabcd8001;
  op(t, enc(VT_INSN_VSLIDE1DOWN_VX, 3, 1, A0, 1)); /* vl = 3: element 2 gets x */
  op(t, enc(VT_INSN_VSLIDEDOWN_VI, 4, 1, 1, 1));
  op(t, enc(VT_INSN_VCOMPRESS_VM, 5, 1, 2));
  run(t);
  EXPECT_M(t, 3, 16, 0x7, 0x2222, 0x3333, 0x8001, 0);
  EXPECT_M(t, 4, 16, 0x7, 0x2222, 0x3333, 0x4444, 0); /* VLMAX = 8: element 3 exists */
  EXPECT_M(t, 5, 16, 0x3, 0x1111, 0x3333, 0, 0);
  FINISH(t);
}

TEST(viota_e8) {
  sewt *t = sewt_new(8, E8, 8);
  SETV(t, 1, 8, 0xb5); /* 1 0 1 0 1 1 0 1 */
  op(t, enc(VT_INSN_VIOTA_M, 3, 1, 1));
  run(t);
  EXPECT(t, 3, 8, 0, 1, 1, 2, 2, 3, 4, 4);
  FINISH(t);
}

/* ---------------- what stays illegal or unimplemented ---------------- */

TEST(sew32_widening_traps) {
  /* narrowing from pairs and widening reductions stay illegal at SEW 32
   * (isa2025.md 3.2.3; widening itself is legal, test_sim_sew64.c) */
  static const vt_insn_id ids[] = {VT_INSN_VNSRL_WV, VT_INSN_VNCLIP_WV, VT_INSN_VWREDSUM_VS};
  static const char *const why[] = {"no narrowing from 64-bit elements",
                                    "no narrowing from 64-bit elements",
                                    "no reductions of 64-bit elements"};
  for (unsigned k = 0; k < sizeof ids / sizeof ids[0]; k++) {
    sewt *t = sewt_new(4, E32, 4);
    op(t, enc(ids[k], 3, 2, 1, 1));
    run(t);
    EXPECT_ERROR(t, why[k]);
  }
  /* LMUL = 8 would need a 16-register wide operand */
  sewt *t = sewt_new(4, E8 | 3, 4);
  op(t, enc(VT_INSN_VWADD_VV, 8, 16, 24, 1));
  run(t);
  EXPECT_ERROR(t, "LMUL = 8");
}

/* binary16 is in test_sim_fp16.c; there is no 8-bit floating point */
TEST(fp_at_sew8_illegal) {
  static const vt_insn_id ids[] = {VT_INSN_VFADD_VV, VT_INSN_VFWADD_VV, VT_INSN_VFNCVT_F_F_W,
                                   VT_INSN_VMFEQ_VV, VT_INSN_VFREDUSUM_VS};
  for (unsigned k = 0; k < sizeof ids / sizeof ids[0]; k++) {
    sewt *t = sewt_new(4, E8, 4);
    const vt_insn_desc *d = vt_isa_insn(ids[k]);
    op(t, d->nops == 3 ? enc(ids[k], 3, 1, 1) : enc(ids[k], 3, 1, 2, 1));
    run(t);
    EXPECT_ERROR(t, "no 8-bit floating point");
  }
}

RUN_TESTS(T(add_sub_e8), T(add_sub_e16), T(min_max_e8), T(min_max_logic_e16), T(shifts_e8),
          T(shifts_e16), T(compares_e8), T(compares_e16), T(mul_e8), T(mul_e16), T(div_rem_e8),
          T(div_rem_e16), T(multiply_add_e8), T(multiply_add_e16_vx), T(saturating_e8),
          T(saturating_e16), T(averaging_e8), T(averaging_e16), T(scaling_shifts_e8),
          T(scaling_shifts_e16), T(vsmul_e8_e16), T(masks_and_vl_e16), T(vid_vl_e8),
          T(moves_e8_e16), T(merge_e8), T(carry_e8), T(carry_e32), T(extensions_e16),
          T(widening_add_mul_e8), T(widening_w_forms_e8), T(widening_macc_e8),
          T(widening_e16_groups), T(widening_reductions_e8), T(narrowing_shifts_e8),
          T(narrowing_clip_e8), T(narrowing_e16), T(reductions_e8), T(reductions_e16),
          T(slides_gathers_e8_m2), T(slides_compress_e16), T(viota_e8), T(sew32_widening_traps),
          T(fp_at_sew8_illegal))
