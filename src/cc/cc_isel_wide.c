/* 64-bit operations on Ventus v2025 register pairs (isa2025.md 3.1.5, 3.2.2,
 * 3.2.3): binary64 arithmetic, comparisons and conversions, and 64-bit
 * integer division. A 64-bit value is two 32-bit parts (cc_isel.h) that
 * the register allocator places independently; an instruction on pairs
 * needs them in an even-aligned pair. So each operation copies its operands
 * into fixed staging pairs (precoloured registers: the allocator keeps
 * other values out of them while they are live and removes the copies when
 * it can give a value the staging register itself), runs the instruction
 * there and copies the result out:
 *   vector pairs v2/v3, v4/v5, v6/v7  SEW-64 instructions (the emitter
 *                                     switches vtype around them) and the
 *                                     widening conversions at SEW 32;
 *   scalar pairs a0/a1, a2/a3         `prefix pair=1` + div/divu/rem/remu.
 * Binary64 has no scalar instruction (Zfinx is single precision only), so
 * uniform binary64 operands run in the vector pairs too and the result
 * comes back to scalar registers with vmv.x.s, which keeps the result's
 * class what the operands' classes make it (uniform in, uniform out). */
#include "cc_isel.h"

enum { P0 = 2, P1 = 4, P2 = 6, /* vector staging pairs */ XP0 = 10, XP1 = 12 /* scalar ones */ };

static bool any_v(const cc_opnd *p, int n) {
  for (int k = 0; k < n; k++)
    if (op_is_v(p[k])) return true;
  return false;
}

/* v[pair], v[pair + 1] = the parts lo, hi */
static void stage(isel *s, int pair, const cc_opnd *p) {
  copy_to(s, CC_V(pair), p[0]);
  copy_to(s, CC_V(pair + 1), p[1]);
}

/* n parts (1: the low word only) of the pair's result: vector registers,
 * or scalar ones when every operand was uniform */
static void unstage(isel *s, int pair, bool varying, cc_opnd *out, int n) {
  for (int k = 0; k < n; k++) {
    int r = new_reg(s, varying ? CC_RC_V : CC_RC_S);
    if (varying) emit(s, CC_COPY, r, CC_V(pair + k), -1, -1, 0);
    else emit(s, CC_VMV_XS, r, CC_V(pair + k), -1, -1, 0);
    out[k] = op_reg(r, varying ? CC_RC_V : CC_RC_S);
  }
}

void wide_vv(isel *s, cc_op op, const cc_opnd *a, const cc_opnd *b, cc_opnd *out, int nout) {
  bool v = any_v(a, 2) || any_v(b, 2);
  stage(s, P0, a);
  stage(s, P1, b);
  emit(s, op, CC_V(P0), CC_V(P0), CC_V(P1), -1, 0);
  unstage(s, P0, v, out, nout);
}

void wide_v(isel *s, cc_op op, const cc_opnd *a, cc_opnd *out, int nout) {
  bool v = any_v(a, 2);
  stage(s, P0, a);
  emit(s, op, CC_V(P0), CC_V(P0), -1, -1, 0);
  unstage(s, P0, v, out, nout);
}

/* a * b + c with one rounding (vfmacc.vv: vd = vs1 * vs2 + vd) */
void wide_fma(isel *s, const cc_opnd *a, const cc_opnd *b, const cc_opnd *c, cc_opnd *out) {
  bool v = any_v(a, 2) || any_v(b, 2) || any_v(c, 2);
  stage(s, P0, c);
  stage(s, P1, a);
  stage(s, P2, b);
  emit(s, CC_WFMACC, CC_V(P0), CC_V(P0), CC_V(P1), CC_V(P2), 0);
  unstage(s, P0, v, out, 2);
}

/* a 32-bit value widened to a pair at SEW 32 (vfwcvt.*) */
void wide_from32(isel *s, cc_op op, cc_opnd a, cc_opnd *out) {
  bool v = op_is_v(a);
  emit(s, op, CC_V(P0), to_vreg(s, a), -1, -1, 0);
  unstage(s, P0, v, out, 2);
}

/* 64-bit div/divu/rem/remu (RV64M results: x / 0 = all ones, x % 0 = x,
 * INT64_MIN / -1 = INT64_MIN with remainder 0): uniform operands with the
 * pair prefix on a0/a1, a2/a3; varying ones at SEW 64 */
void wide_divide(isel *s, cc_op pop, cc_op vop, const cc_opnd *a, const cc_opnd *b, cc_opnd *out) {
  if (any_v(a, 2) || any_v(b, 2)) {
    wide_vv(s, vop, a, b, out, 2);
    return;
  }
  for (int k = 0; k < 2; k++) {
    copy_to(s, CC_X(XP0 + k), a[k]);
    copy_to(s, CC_X(XP1 + k), b[k]);
  }
  emit(s, pop, CC_X(XP0), CC_X(XP0), CC_X(XP1), -1, 0);
  for (int k = 0; k < 2; k++) {
    int r = new_reg(s, CC_RC_S);
    emit(s, CC_COPY, r, CC_X(XP0 + k), -1, -1, 0);
    out[k] = op_reg(r, CC_RC_S);
  }
}

/* |x| keeps its sign bit clear: the high word */
static cc_opnd abs_hi(isel *s, cc_opnd hi) { return alu(s, A_AND, hi, op_imm(0x7fffffff)); }

void wide_fabs(isel *s, const cc_opnd *a, cc_opnd *out) {
  out[0] = a[0];
  out[1] = abs_hi(s, a[1]);
}

void wide_copysign(isel *s, const cc_opnd *a, const cc_opnd *b, cc_opnd *out) {
  out[0] = a[0];
  out[1] = alu(s, A_OR, abs_hi(s, a[1]), alu(s, A_AND, b[1], op_imm((int32_t)0x80000000u)));
}

/* Rounding to an integral binary64 with rounding mode rm (0 RNE, 1 RTZ,
 * 2 RDN, 3 RUP, 4 RMM): through int64 and back, the sign of x restored
 * (-0.0 results), x itself kept when |x| >= 2^52 (already integral),
 * infinite or NaN, which is when the high word of |x| is >= 0x43300000. */
void wide_round(isel *s, int rm, const cc_opnd *x, cc_opnd *out) {
  cc_opnd t[2], back[2];
  if (rm == 1) {
    wide_v(s, CC_WFCVT_RTZ_X_F, x, t, 2);
  } else { /* vector conversions round with frm */
    if (rm) emit(s, CC_FSRMI, -1, -1, -1, -1, rm);
    wide_v(s, CC_WFCVT_X_F, x, t, 2);
    if (rm) emit(s, CC_FSRMI, -1, -1, -1, -1, 0);
  }
  wide_v(s, CC_WFCVT_F_X, t, back, 2);
  wide_copysign(s, back, x, back);
  cc_opnd small = alu(s, A_SLTU, abs_hi(s, x[1]), op_imm(0x43300000));
  for (int k = 0; k < 2; k++) out[k] = select_op(s, small, back[k], x[k]);
}

/* a < b on 64-bit parts (signed or unsigned): the high words decide unless
 * they are equal, then the low words (unsigned) */
cc_opnd lt64(isel *s, bool sgn, const cc_opnd *a, const cc_opnd *b) {
  return alu(s, A_OR, alu(s, sgn ? A_SLT : A_SLTU, a[1], b[1]),
             alu(s, A_AND, alu(s, A_SEQ, a[1], b[1]), alu(s, A_SLTU, a[0], b[0])));
}
