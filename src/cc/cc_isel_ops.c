/* Operand handling and the class-polymorphic operations of instruction
 * selection: one call computes a OP b with the scalar form (RV32IM, Zfinx)
 * when both operands are uniform and with the vector form (.vv, .vx with a
 * scalar register, .vi / vadd12.vi with an immediate, or the reversed
 * forms vrsub/vmsgt/vfrsub/vfrdiv/vmfgt/vmfge) when one is varying, so
 * that sequences (select, rounding, 64-bit arithmetic, ...) are written
 * once for both. */
#include <string.h>

#include "cc_isel.h"

cc_opnd op_imm(int32_t k) { return (cc_opnd){.kind = OPK_IMM, .rc = CC_RC_NONE, .k = k}; }
cc_opnd op_reg(int r, int rc) { return (cc_opnd){.kind = OPK_REG, .rc = (int8_t)rc, .r = r}; }

int new_reg(isel *s, int rc) { return cc_mf_vreg(s->mf, rc); }

cc_mi *emit(isel *s, cc_op op, int d, int s0, int s1, int s2, int32_t imm) {
  cc_mi mi = {.op = (uint16_t)op, .d = d, .s = {s0, s1, s2}, .imm = imm, .target = -1,
              .target2 = -1, .line = s->line};
  return cc_mb_push(s->mf, s->cur, &mi);
}

static bool fits12(int32_t k) { return k >= -2048 && k <= 2047; }
static bool fits5(int32_t k) { return k >= -16 && k <= 15; }

int to_sreg(isel *s, cc_opnd a) {
  if (a.kind == OPK_IMM) {
    if (a.k == 0) return CC_X(0);
    int r = new_reg(s, CC_RC_S);
    emit(s, CC_LI, r, -1, -1, -1, a.k);
    return r;
  }
  if (a.kind == OPK_REG && a.rc == CC_RC_S) return a.r;
  isel_error(s, "internal error: a per-lane value where a uniform one is needed");
  return CC_X(0);
}

int to_vreg(isel *s, cc_opnd a) {
  if (a.kind == OPK_REG && a.rc == CC_RC_V) return a.r;
  if (a.kind == OPK_IMM && a.k == 0) return CC_V(0); /* v0 holds 0 in every lane */
  int r = new_reg(s, CC_RC_V);
  if (a.kind == OPK_IMM && fits5(a.k)) emit(s, CC_VMV_VI, r, -1, -1, -1, a.k);
  else emit(s, CC_VMV_VX, r, to_sreg(s, a), -1, -1, 0);
  return r;
}

int to_class(isel *s, cc_opnd a, int rc) { return rc == CC_RC_V ? to_vreg(s, a) : to_sreg(s, a); }

cc_opnd as_class(isel *s, cc_opnd a, int rc) {
  if (rc == CC_RC_V && !op_is_v(a)) return op_reg(to_vreg(s, a), CC_RC_V);
  return a;
}

void copy_to(isel *s, int d, cc_opnd a) {
  int rc = cc_vr_class(s->mf, d);
  if (rc == CC_RC_S) {
    if (a.kind == OPK_IMM) emit(s, CC_LI, d, -1, -1, -1, a.k);
    else emit(s, CC_COPY, d, to_sreg(s, a), -1, -1, 0);
  } else if (a.kind == OPK_IMM && fits5(a.k)) {
    emit(s, CC_VMV_VI, d, -1, -1, -1, a.k);
  } else if (a.kind == OPK_REG && a.rc == CC_RC_V) {
    emit(s, CC_COPY, d, a.r, -1, -1, 0);
  } else {
    emit(s, CC_VMV_VX, d, to_sreg(s, a), -1, -1, 0);
  }
}

/* The forms of each operation; -1 = none. v_rx / v_ri compute
 * "scalar OP vector" (vrsub.vx: rs1 - vs2; vmsgt.vx for rs1 < vs2; ...). */
typedef struct alu_desc {
  int16_t s_rr, s_ri, v_vv, v_vx, v_vi, v_rx, v_ri;
  uint8_t comm, fp, vi_uimm;
} alu_desc;

#define N -1
static const alu_desc alu_tab[A_COUNT] = {
    [A_ADD] = {CC_ADD, CC_ADDI, CC_VADD_VV, CC_VADD_VX, CC_VADD_VI, N, N, 1, 0, 0},
    [A_SUB] = {CC_SUB, N, CC_VSUB_VV, CC_VSUB_VX, N, CC_VRSUB_VX, CC_VRSUB_VI, 0, 0, 0},
    [A_MUL] = {CC_MUL, N, CC_VMUL_VV, CC_VMUL_VX, N, N, N, 1, 0, 0},
    [A_MULH] = {CC_MULH, N, CC_VMULH_VV, CC_VMULH_VX, N, N, N, 1, 0, 0},
    [A_MULHU] = {CC_MULHU, N, CC_VMULHU_VV, CC_VMULHU_VX, N, N, N, 1, 0, 0},
    [A_DIV] = {CC_DIV, N, CC_VDIV_VV, CC_VDIV_VX, N, N, N, 0, 0, 0},
    [A_DIVU] = {CC_DIVU, N, CC_VDIVU_VV, CC_VDIVU_VX, N, N, N, 0, 0, 0},
    [A_REM] = {CC_REM, N, CC_VREM_VV, CC_VREM_VX, N, N, N, 0, 0, 0},
    [A_REMU] = {CC_REMU, N, CC_VREMU_VV, CC_VREMU_VX, N, N, N, 0, 0, 0},
    [A_AND] = {CC_AND, CC_ANDI, CC_VAND_VV, CC_VAND_VX, CC_VAND_VI, N, N, 1, 0, 0},
    [A_OR] = {CC_OR, CC_ORI, CC_VOR_VV, CC_VOR_VX, CC_VOR_VI, N, N, 1, 0, 0},
    [A_XOR] = {CC_XOR, CC_XORI, CC_VXOR_VV, CC_VXOR_VX, CC_VXOR_VI, N, N, 1, 0, 0},
    [A_SLL] = {CC_SLL, CC_SLLI, CC_VSLL_VV, CC_VSLL_VX, CC_VSLL_VI, N, N, 0, 0, 1},
    [A_SRL] = {CC_SRL, CC_SRLI, CC_VSRL_VV, CC_VSRL_VX, CC_VSRL_VI, N, N, 0, 0, 1},
    [A_SRA] = {CC_SRA, CC_SRAI, CC_VSRA_VV, CC_VSRA_VX, CC_VSRA_VI, N, N, 0, 0, 1},
    [A_SLT] = {CC_SLT, CC_SLTI, CC_VMSLT_VV, CC_VMSLT_VX, N, CC_VMSGT_VX, CC_VMSGT_VI, 0, 0, 0},
    [A_SLTU] = {CC_SLTU, CC_SLTIU, CC_VMSLTU_VV, CC_VMSLTU_VX, N, CC_VMSGTU_VX, CC_VMSGTU_VI, 0, 0, 0},
    [A_SEQ] = {N, N, CC_VMSEQ_VV, CC_VMSEQ_VX, CC_VMSEQ_VI, N, N, 1, 0, 0},
    [A_SNE] = {N, N, CC_VMSNE_VV, CC_VMSNE_VX, CC_VMSNE_VI, N, N, 1, 0, 0},
    [A_SLE] = {N, N, CC_VMSLE_VV, CC_VMSLE_VX, CC_VMSLE_VI, N, N, 0, 0, 0},
    [A_SLEU] = {N, N, CC_VMSLEU_VV, CC_VMSLEU_VX, CC_VMSLEU_VI, N, N, 0, 0, 0},
    [A_MIN] = {N, N, CC_VMIN_VV, CC_VMIN_VX, N, N, N, 1, 0, 0},
    [A_MAX] = {N, N, CC_VMAX_VV, CC_VMAX_VX, N, N, N, 1, 0, 0},
    [A_MINU] = {N, N, CC_VMINU_VV, CC_VMINU_VX, N, N, N, 1, 0, 0},
    [A_MAXU] = {N, N, CC_VMAXU_VV, CC_VMAXU_VX, N, N, N, 1, 0, 0},
    [A_FADD] = {CC_FADD, N, CC_VFADD_VV, CC_VFADD_VF, N, N, N, 1, 1, 0},
    [A_FSUB] = {CC_FSUB, N, CC_VFSUB_VV, CC_VFSUB_VF, N, CC_VFRSUB_VF, N, 0, 1, 0},
    [A_FMUL] = {CC_FMUL, N, CC_VFMUL_VV, CC_VFMUL_VF, N, N, N, 1, 1, 0},
    [A_FDIV] = {CC_FDIV, N, CC_VFDIV_VV, CC_VFDIV_VF, N, CC_VFRDIV_VF, N, 0, 1, 0},
    [A_FMIN] = {CC_FMIN, N, CC_VFMIN_VV, CC_VFMIN_VF, N, N, N, 1, 1, 0},
    [A_FMAX] = {CC_FMAX, N, CC_VFMAX_VV, CC_VFMAX_VF, N, N, N, 1, 1, 0},
    [A_FSGNJ] = {CC_FSGNJ, N, CC_VFSGNJ_VV, CC_VFSGNJ_VF, N, N, N, 0, 1, 0},
    [A_FSGNJN] = {CC_FSGNJN, N, CC_VFSGNJN_VV, CC_VFSGNJN_VF, N, N, N, 0, 1, 0},
    [A_FSGNJX] = {CC_FSGNJX, N, CC_VFSGNJX_VV, CC_VFSGNJX_VF, N, N, N, 0, 1, 0},
    [A_FEQ] = {CC_FEQ, N, CC_VMFEQ_VV, CC_VMFEQ_VF, N, N, N, 1, 1, 0},
    [A_FLT] = {CC_FLT, N, CC_VMFLT_VV, CC_VMFLT_VF, N, CC_VMFGT_VF, N, 0, 1, 0},
    [A_FLE] = {CC_FLE, N, CC_VMFLE_VV, CC_VMFLE_VF, N, CC_VMFGE_VF, N, 0, 1, 0},
    [A_FNE] = {N, N, CC_VMFNE_VV, CC_VMFNE_VF, N, N, N, 1, 1, 0},
};
#undef N

/* Integer folding with the RISC-V results for division by zero and
 * overflow, so constants behave as the instructions would. */
static bool fold(alu_kind k, int32_t a, int32_t b, int32_t *r) {
  uint32_t ua = (uint32_t)a, ub = (uint32_t)b;
  switch (k) {
  case A_ADD: *r = (int32_t)(ua + ub); return true;
  case A_SUB: *r = (int32_t)(ua - ub); return true;
  case A_MUL: *r = (int32_t)(ua * ub); return true;
  case A_MULH: *r = (int32_t)(((int64_t)a * b) >> 32); return true;
  case A_MULHU: *r = (int32_t)(((uint64_t)ua * ub) >> 32); return true;
  case A_DIV: *r = b == 0 ? -1 : (a == INT32_MIN && b == -1) ? a : a / b; return true;
  case A_DIVU: *r = ub == 0 ? -1 : (int32_t)(ua / ub); return true;
  case A_REM: *r = b == 0 ? a : (a == INT32_MIN && b == -1) ? 0 : a % b; return true;
  case A_REMU: *r = ub == 0 ? a : (int32_t)(ua % ub); return true;
  case A_AND: *r = a & b; return true;
  case A_OR: *r = a | b; return true;
  case A_XOR: *r = a ^ b; return true;
  case A_SLL: *r = (int32_t)(ua << (ub & 31)); return true;
  case A_SRL: *r = (int32_t)(ua >> (ub & 31)); return true;
  case A_SRA: *r = a >> (ub & 31); return true;
  case A_SLT: *r = a < b; return true;
  case A_SLTU: *r = ua < ub; return true;
  case A_SEQ: *r = a == b; return true;
  case A_SNE: *r = a != b; return true;
  case A_SLE: *r = a <= b; return true;
  case A_SLEU: *r = ua <= ub; return true;
  case A_MIN: *r = a < b ? a : b; return true;
  case A_MAX: *r = a > b ? a : b; return true;
  case A_MINU: *r = (int32_t)(ua < ub ? ua : ub); return true;
  case A_MAXU: *r = (int32_t)(ua > ub ? ua : ub); return true;
  default: return false;
  }
}

static int log2_exact(int32_t k) {
  uint32_t u = (uint32_t)k;
  if (!u || (u & (u - 1))) return -1;
  int n = 0;
  while (u >>= 1) n++;
  return n;
}

/* Identities that need no instruction, and strength reduction. */
static bool simplify(isel *s, alu_kind *k, cc_opnd *a, cc_opnd *b, cc_opnd *out) {
  (void)s;
  const alu_desc *d = &alu_tab[*k];
  if (d->comm && op_is_imm(*a) && !op_is_imm(*b)) {
    cc_opnd t = *a;
    *a = *b;
    *b = t;
  }
  if (!op_is_imm(*b) || d->fp) return false;
  int32_t v = b->k;
  switch (*k) {
  case A_ADD: case A_SUB: case A_OR: case A_XOR: case A_SLL: case A_SRL: case A_SRA:
    if (v == 0) { *out = *a; return true; }
    break;
  case A_AND:
    if (v == -1) { *out = *a; return true; }
    if (v == 0) { *out = op_imm(0); return true; }
    break;
  case A_MUL:
    if (v == 1) { *out = *a; return true; }
    if (v == 0) { *out = op_imm(0); return true; }
    if (log2_exact(v) > 0) { *k = A_SLL; *b = op_imm(log2_exact(v)); }
    break;
  case A_DIVU: case A_DIV:
    if (v == 1) { *out = *a; return true; }
    if (*k == A_DIVU && log2_exact(v) > 0) { *k = A_SRL; *b = op_imm(log2_exact(v)); }
    break;
  case A_REMU:
    if (log2_exact(v) >= 0) { *k = A_AND; *b = op_imm(v - 1); }
    break;
  default:
    break;
  }
  return false;
}

static cc_opnd scalar_alu(isel *s, alu_kind k, cc_opnd a, cc_opnd b) {
  const alu_desc *d = &alu_tab[k];
  int r = new_reg(s, CC_RC_S);
  switch (k) {
  case A_SEQ: case A_SNE: {
    cc_opnd t = op_is_imm(b) && b.k == 0 ? a : alu(s, A_XOR, a, b);
    if (k == A_SEQ) emit(s, CC_SLTIU, r, to_sreg(s, t), -1, -1, 1);
    else emit(s, CC_SLTU, r, CC_X(0), to_sreg(s, t), -1, 0);
    return op_reg(r, CC_RC_S);
  }
  case A_SLE: case A_SLEU:
    return alu(s, A_XOR, alu(s, k == A_SLE ? A_SLT : A_SLTU, b, a), op_imm(1));
  case A_MIN: case A_MAX: case A_MINU: case A_MAXU: {
    alu_kind cmp = (k == A_MIN || k == A_MAX) ? A_SLT : A_SLTU;
    cc_opnd c = (k == A_MIN || k == A_MINU) ? alu(s, cmp, a, b) : alu(s, cmp, b, a);
    return select_op(s, c, a, b);
  }
  case A_FNE:
    return alu(s, A_XOR, alu(s, A_FEQ, a, b), op_imm(1));
  default:
    break;
  }
  if (op_is_imm(b) && !d->fp) {
    int32_t v = b.k;
    if (k == A_SUB && fits12(-v)) {
      emit(s, CC_ADDI, r, to_sreg(s, a), -1, -1, -v);
      return op_reg(r, CC_RC_S);
    }
    bool ok = d->s_ri >= 0 && (d->vi_uimm ? (v >= 0 && v < 32) : fits12(v));
    if (ok) {
      emit(s, (cc_op)d->s_ri, r, to_sreg(s, a), -1, -1, v);
      return op_reg(r, CC_RC_S);
    }
  }
  emit(s, (cc_op)d->s_rr, r, to_sreg(s, a), to_sreg(s, b), -1, 0);
  return op_reg(r, CC_RC_S);
}

/* a is V, b is S or an immediate */
static cc_opnd vector_alu_vx(isel *s, alu_kind k, cc_opnd a, cc_opnd b) {
  const alu_desc *d = &alu_tab[k];
  int r = new_reg(s, CC_RC_V);
  if (op_is_imm(b) && !d->fp) {
    int32_t v = b.k;
    bool ok = d->v_vi >= 0 && (d->vi_uimm ? (v >= 0 && v < 32) : fits5(v));
    if (ok) {
      emit(s, (cc_op)d->v_vi, r, a.r, -1, -1, v);
      return op_reg(r, CC_RC_V);
    }
    if ((k == A_ADD || k == A_SUB) && v != INT32_MIN) {
      int32_t add = k == A_ADD ? v : -v;
      if (fits5(add)) {
        emit(s, CC_VADD_VI, r, a.r, -1, -1, add);
        return op_reg(r, CC_RC_V);
      }
      if (fits12(add)) { /* vadd12.vi: 12-bit signed immediate (spec decision 2) */
        emit(s, CC_VADD12, r, a.r, -1, -1, add);
        return op_reg(r, CC_RC_V);
      }
    }
    if (k == A_SLT && v != INT32_MIN && fits5(v - 1)) { /* a < v  <=>  a <= v-1 */
      emit(s, CC_VMSLE_VI, r, a.r, -1, -1, v - 1);
      return op_reg(r, CC_RC_V);
    }
    if (k == A_SLTU && v != 0 && fits5(v - 1)) {
      emit(s, CC_VMSLEU_VI, r, a.r, -1, -1, v - 1);
      return op_reg(r, CC_RC_V);
    }
    if (k == A_SLTU && v == 0) return op_imm(0);
  }
  if (d->v_vx >= 0) {
    emit(s, (cc_op)d->v_vx, r, a.r, to_sreg(s, b), -1, 0);
    return op_reg(r, CC_RC_V);
  }
  emit(s, (cc_op)d->v_vv, r, a.r, to_vreg(s, b), -1, 0);
  return op_reg(r, CC_RC_V);
}

/* a is S or an immediate, b is V */
static cc_opnd vector_alu_xv(isel *s, alu_kind k, cc_opnd a, cc_opnd b) {
  const alu_desc *d = &alu_tab[k];
  if (d->comm) return vector_alu_vx(s, k, b, a);
  int r = new_reg(s, CC_RC_V);
  if (op_is_imm(a) && d->v_ri >= 0 && fits5(a.k)) {
    emit(s, (cc_op)d->v_ri, r, b.r, -1, -1, a.k);
    return op_reg(r, CC_RC_V);
  }
  if (d->v_rx >= 0) {
    emit(s, (cc_op)d->v_rx, r, b.r, to_sreg(s, a), -1, 0);
    return op_reg(r, CC_RC_V);
  }
  emit(s, (cc_op)d->v_vv, r, to_vreg(s, a), b.r, -1, 0);
  return op_reg(r, CC_RC_V);
}

cc_opnd alu(isel *s, alu_kind k, cc_opnd a, cc_opnd b) {
  int32_t f;
  if (op_is_imm(a) && op_is_imm(b) && !alu_tab[k].fp && fold(k, a.k, b.k, &f)) return op_imm(f);
  cc_opnd out;
  if (simplify(s, &k, &a, &b, &out)) return out;
  bool va = op_is_v(a), vb = op_is_v(b);
  if (!va && !vb) return scalar_alu(s, k, a, b);
  if (va && vb) {
    int r = new_reg(s, CC_RC_V);
    emit(s, (cc_op)alu_tab[k].v_vv, r, a.r, b.r, -1, 0);
    return op_reg(r, CC_RC_V);
  }
  return va ? vector_alu_vx(s, k, a, b) : vector_alu_xv(s, k, a, b);
}

cc_opnd select_op(isel *s, cc_opnd c, cc_opnd a, cc_opnd b) {
  if (op_is_imm(c)) return c.k ? a : b;
  if (a.kind == b.kind && (op_is_imm(a) ? a.k == b.k : a.r == b.r)) return a;
  if (op_is_imm(a) && op_is_imm(b)) {
    if (a.k == 1 && b.k == 0) return c;
    if (a.k == 0 && b.k == 1) return alu(s, A_XOR, c, op_imm(1));
  }
  cc_opnd m = alu(s, A_SUB, op_imm(0), c); /* 0 or all ones */
  if (op_is_imm(b) && b.k == 0) return alu(s, A_AND, a, m);
  cc_opnd t = alu(s, A_AND, alu(s, A_XOR, a, b), m);
  return alu(s, A_XOR, t, b);
}

cc_opnd unary(isel *s, cc_op sop, cc_op vop, cc_opnd a) {
  if (op_is_v(a)) {
    int r = new_reg(s, CC_RC_V);
    emit(s, vop, r, a.r, -1, -1, 0);
    return op_reg(r, CC_RC_V);
  }
  int r = new_reg(s, CC_RC_S);
  emit(s, sop, r, to_sreg(s, a), -1, -1, 0);
  return op_reg(r, CC_RC_S);
}

cc_opnd fma_op(isel *s, cc_opnd a, cc_opnd b, cc_opnd c) {
  if (!op_is_v(a) && !op_is_v(b) && !op_is_v(c)) {
    int r = new_reg(s, CC_RC_S);
    emit(s, CC_FMADD, r, to_sreg(s, a), to_sreg(s, b), to_sreg(s, c), 0);
    return op_reg(r, CC_RC_S);
  }
  /* vfmacc: vd = vs1 * vs2 + vd, vd tied to the addend */
  int d = new_reg(s, CC_RC_V);
  copy_to(s, d, c);
  if (!op_is_v(a) && !op_is_v(b)) a = op_reg(to_vreg(s, a), CC_RC_V);
  if (!op_is_v(a)) {
    cc_opnd t = a;
    a = b;
    b = t;
  }
  if (op_is_v(b)) emit(s, CC_VFMACC_VV, d, d, a.r, b.r, 0);
  else emit(s, CC_VFMACC_VF, d, d, to_sreg(s, b), a.r, 0);
  return op_reg(d, CC_RC_V);
}

cc_opnd fcvt_op(isel *s, cc_op sop, int rm, cc_op vop, cc_opnd a) {
  if (op_is_v(a)) {
    int r = new_reg(s, CC_RC_V);
    emit(s, vop, r, a.r, -1, -1, 0);
    return op_reg(r, CC_RC_V);
  }
  int r = new_reg(s, CC_RC_S);
  emit(s, sop, r, to_sreg(s, a), -1, -1, rm);
  return op_reg(r, CC_RC_S);
}

/* Rounding to an integral float with rounding mode rm (RISC-V encoding:
 * 0 RNE, 1 RTZ, 2 RDN, 3 RUP, 4 RMM): through a conversion to int and
 * back, with the sign of x restored (-0.0 results) and x itself kept when
 * |x| >= 2^23 (already integral), infinite or NaN. */
cc_opnd round_op(isel *s, int rm, cc_opnd x) {
  cc_opnd back;
  if (op_is_v(x)) {
    int t = new_reg(s, CC_RC_V);
    if (rm == 1) {
      emit(s, CC_VFCVT_RTZ_X_F, t, x.r, -1, -1, 0);
    } else { /* vector conversions round with frm */
      if (rm) emit(s, CC_FSRMI, -1, -1, -1, -1, rm);
      emit(s, CC_VFCVT_X_F, t, x.r, -1, -1, 0);
      if (rm) emit(s, CC_FSRMI, -1, -1, -1, -1, 0);
    }
    int f = new_reg(s, CC_RC_V);
    emit(s, CC_VFCVT_F_X, f, t, -1, -1, 0);
    back = op_reg(f, CC_RC_V);
  } else {
    cc_opnd t = fcvt_op(s, CC_FCVT_W_S, rm, CC_VFCVT_X_F, x);
    back = unary(s, CC_FCVT_S_W, CC_VFCVT_F_X, t);
  }
  back = alu(s, A_FSGNJ, back, x);
  cc_opnd mag = alu(s, A_FSGNJX, x, x);
  cc_opnd small = alu(s, A_FLT, mag, op_imm(0x4b000000)); /* 2^23 */
  return select_op(s, small, back, x);
}

cc_opnd sext_op(isel *s, cc_opnd a, int bits) {
  if (bits >= 32) return a;
  if (op_is_imm(a)) return op_imm((int32_t)((uint32_t)a.k << (32 - bits)) >> (32 - bits));
  if (bits == 1) return alu(s, A_SUB, op_imm(0), a); /* i1 is kept 0 or 1 */
  return alu(s, A_SRA, alu(s, A_SLL, a, op_imm(32 - bits)), op_imm(32 - bits));
}

cc_opnd zext_op(isel *s, cc_opnd a, int bits) {
  if (bits >= 32 || bits == 1) return a;
  if (op_is_imm(a)) return op_imm((int32_t)((uint32_t)a.k & ((1u << bits) - 1)));
  if (bits <= 11) return alu(s, A_AND, a, op_imm((1 << bits) - 1));
  return alu(s, A_SRL, alu(s, A_SLL, a, op_imm(32 - bits)), op_imm(32 - bits));
}

/* binary16 <-> binary32 (vfcvt.f.h.v / vfcvt.h.f.v, isa2025.md 3.2.4: per
 * lane, the half in bits 15:0). They exist only as vector instructions: a
 * uniform value converts in a vector register and comes back with vmv.x.s. */
cc_opnd cvt_f16(isel *s, cc_op vop, cc_opnd a) {
  int r = new_reg(s, CC_RC_V);
  emit(s, vop, r, to_vreg(s, a), -1, -1, 0);
  if (op_is_v(a)) return op_reg(r, CC_RC_V);
  int x = new_reg(s, CC_RC_S);
  emit(s, CC_VMV_XS, x, r, -1, -1, 0);
  return op_reg(x, CC_RC_S);
}
