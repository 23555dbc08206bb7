/* Selection of arithmetic, comparisons, casts, selects and vector/aggregate
 * element operations, element by element over a value's parts. Integers
 * narrower than 32 bits live in 32-bit registers whose upper bits may be
 * garbage; operations that look at them extend their operands first (i1 is
 * always kept 0 or 1). 64-bit integers are (low, high) pairs. */
#include <string.h>

#include "cc_isel.h"

static cc_val *result(isel *s, LLVMValueRef i, int n) { return val_new(s, i, n); }

/* elements and parts per element of a (vector) type */
static void shape(LLVMTypeRef t, int *nelem, int *per, LLVMTypeRef *elem) {
  if (LLVMGetTypeKind(t) == LLVMVectorTypeKind) {
    *nelem = (int)LLVMGetVectorSize(t);
    *elem = LLVMGetElementType(t);
  } else {
    *nelem = 1;
    *elem = t;
  }
  *per = parts_of_type(*elem);
}

/* 64-bit shifts by a variable amount, without branches: both the "less
 * than 32" and the "32 or more" results, chosen by bit 5 of the amount. */
bool shift64(isel *s, LLVMOpcode op, const cc_opnd *a, cc_opnd amount, cc_opnd *out) {
  cc_opnd m = alu(s, A_AND, amount, op_imm(31)), inv = alu(s, A_SUB, op_imm(31), m);
  cc_opnd big = alu(s, A_AND, amount, op_imm(32));
  big = alu(s, A_SNE, big, op_imm(0));
  if (op == LLVMShl) {
    cc_opnd lo = alu(s, A_SLL, a[0], m);
    cc_opnd hi = alu(s, A_OR, alu(s, A_SLL, a[1], m), alu(s, A_SRL, alu(s, A_SRL, a[0], op_imm(1)), inv));
    out[1] = select_op(s, big, lo, hi);
    out[0] = select_op(s, big, op_imm(0), lo);
    return true;
  }
  alu_kind sh = op == LLVMLShr ? A_SRL : A_SRA;
  cc_opnd hi = alu(s, sh, a[1], m);
  cc_opnd lo = alu(s, A_OR, alu(s, A_SRL, a[0], m), alu(s, A_SLL, alu(s, A_SLL, a[1], op_imm(1)), inv));
  out[0] = select_op(s, big, hi, lo);
  out[1] = select_op(s, big, op == LLVMLShr ? op_imm(0) : alu(s, A_SRA, a[1], op_imm(31)), hi);
  return true;
}

/* 64-bit pieces: out[0..1] = a OP b */
static bool binop64(isel *s, LLVMOpcode op, const cc_opnd *a, const cc_opnd *b, cc_opnd *out) {
  switch (op) {
  case LLVMAdd: {
    cc_opnd lo = alu(s, A_ADD, a[0], b[0]);
    cc_opnd carry = alu(s, A_SLTU, lo, a[0]);
    out[1] = alu(s, A_ADD, alu(s, A_ADD, a[1], b[1]), carry);
    out[0] = lo;
    return true;
  }
  case LLVMSub: {
    cc_opnd borrow = alu(s, A_SLTU, a[0], b[0]);
    out[0] = alu(s, A_SUB, a[0], b[0]);
    out[1] = alu(s, A_SUB, alu(s, A_SUB, a[1], b[1]), borrow);
    return true;
  }
  case LLVMMul: {
    cc_opnd hi = alu(s, A_MULHU, a[0], b[0]);
    hi = alu(s, A_ADD, hi, alu(s, A_MUL, a[0], b[1]));
    out[1] = alu(s, A_ADD, hi, alu(s, A_MUL, a[1], b[0]));
    out[0] = alu(s, A_MUL, a[0], b[0]);
    return true;
  }
  case LLVMAnd: case LLVMOr: case LLVMXor: {
    alu_kind k = op == LLVMAnd ? A_AND : op == LLVMOr ? A_OR : A_XOR;
    out[0] = alu(s, k, a[0], b[0]);
    out[1] = alu(s, k, a[1], b[1]);
    return true;
  }
  case LLVMSDiv: wide_divide(s, CC_PDIV, CC_WDIV, a, b, out); return true;
  case LLVMUDiv: wide_divide(s, CC_PDIVU, CC_WDIVU, a, b, out); return true;
  case LLVMSRem: wide_divide(s, CC_PREM, CC_WREM, a, b, out); return true;
  case LLVMURem: wide_divide(s, CC_PREMU, CC_WREMU, a, b, out); return true;
  case LLVMShl: case LLVMLShr: case LLVMAShr: {
    if (!op_is_imm(b[0])) return shift64(s, op, a, b[0], out);
    int n = b[0].k & 63;
    cc_opnd lo = a[0], hi = a[1];
    if (n == 0) {
      out[0] = lo;
      out[1] = hi;
    } else if (op == LLVMShl) {
      out[1] = n >= 32 ? alu(s, A_SLL, lo, op_imm(n - 32))
                       : alu(s, A_OR, alu(s, A_SLL, hi, op_imm(n)), alu(s, A_SRL, lo, op_imm(32 - n)));
      out[0] = n >= 32 ? op_imm(0) : alu(s, A_SLL, lo, op_imm(n));
    } else {
      alu_kind sh = op == LLVMLShr ? A_SRL : A_SRA;
      out[0] = n >= 32 ? alu(s, sh, hi, op_imm(n - 32))
                       : alu(s, A_OR, alu(s, A_SRL, lo, op_imm(n)), alu(s, A_SLL, hi, op_imm(32 - n)));
      out[1] = n >= 32 ? (op == LLVMLShr ? op_imm(0) : alu(s, A_SRA, hi, op_imm(31)))
                       : alu(s, sh, hi, op_imm(n));
    }
    return true;
  }
  default:
    return false;
  }
}

/* binary64: out[0..1] = a OP b */
static bool binop_f64(isel *s, LLVMOpcode op, const cc_opnd *a, const cc_opnd *b, cc_opnd *out) {
  cc_op w = op == LLVMFAdd ? CC_WFADD : op == LLVMFSub ? CC_WFSUB : op == LLVMFMul ? CC_WFMUL
            : op == LLVMFDiv ? CC_WFDIV : CC_NOPS;
  if (w == CC_NOPS) return false;
  wide_vv(s, w, a, b, out, 2);
  return true;
}

static bool binop32(isel *s, LLVMOpcode op, int bits, cc_opnd a, cc_opnd b, cc_opnd *out) {
  alu_kind k;
  switch (op) {
  case LLVMAdd: k = A_ADD; break;
  case LLVMSub: k = A_SUB; break;
  case LLVMMul: k = A_MUL; break;
  case LLVMAnd: k = A_AND; break;
  case LLVMOr: k = A_OR; break;
  case LLVMXor: k = A_XOR; break;
  case LLVMShl: k = A_SLL; b = zext_op(s, b, bits); break;
  case LLVMLShr: k = A_SRL; a = zext_op(s, a, bits); b = zext_op(s, b, bits); break;
  case LLVMAShr: k = A_SRA; a = sext_op(s, a, bits); b = zext_op(s, b, bits); break;
  case LLVMUDiv: k = A_DIVU; a = zext_op(s, a, bits); b = zext_op(s, b, bits); break;
  case LLVMURem: k = A_REMU; a = zext_op(s, a, bits); b = zext_op(s, b, bits); break;
  case LLVMSDiv: k = A_DIV; a = sext_op(s, a, bits); b = sext_op(s, b, bits); break;
  case LLVMSRem: k = A_REM; a = sext_op(s, a, bits); b = sext_op(s, b, bits); break;
  case LLVMFAdd: k = A_FADD; break;
  case LLVMFSub: k = A_FSUB; break;
  case LLVMFMul: k = A_FMUL; break;
  case LLVMFDiv: k = A_FDIV; break;
  default: return false;
  }
  *out = alu(s, k, a, b);
  if (bits == 1 && (op == LLVMAdd || op == LLVMSub || op == LLVMMul || op == LLVMShl))
    *out = alu(s, A_AND, *out, op_imm(1));
  return true;
}

/* binary16 through binary32: +, -, *, / (and sqrt) rounded to binary32 and
 * then to binary16 give the correctly rounded binary16 result, as binary32
 * has 24 >= 2 * 11 + 2 significand bits (Figueroa's double-rounding bound) */
static bool binop_f16(isel *s, LLVMOpcode op, cc_opnd a, cc_opnd b, cc_opnd *out) {
  if (op != LLVMFAdd && op != LLVMFSub && op != LLVMFMul && op != LLVMFDiv) return false;
  cc_opnd r;
  binop32(s, op, 0, cvt_f16(s, CC_VFCVT_F_H, a), cvt_f16(s, CC_VFCVT_F_H, b), &r);
  *out = cvt_f16(s, CC_VFCVT_H_F, r);
  return true;
}

static void select_binop(isel *s, LLVMValueRef i) {
  LLVMOpcode op = LLVMGetInstructionOpcode(i);
  int nelem, per;
  LLVMTypeRef et;
  shape(LLVMTypeOf(i), &nelem, &per, &et);
  cc_val *a = get_val(s, LLVMGetOperand(i, 0)), *b = get_val(s, LLVMGetOperand(i, 1));
  if (!a || !b) return;
  cc_opnd pa[256], pb[256];
  memcpy(pa, a->p, (size_t)a->n * sizeof *pa); /* a/b may live in the temporary ring */
  memcpy(pb, b->p, (size_t)b->n * sizeof *pb);
  cc_val *r = result(s, i, nelem * per);
  if (!r) return;
  LLVMTypeKind ek = LLVMGetTypeKind(et);
  for (int e = 0; e < nelem; e++) {
    bool ok = ek == LLVMDoubleTypeKind ? binop_f64(s, op, pa + 2 * e, pb + 2 * e, r->p + 2 * e)
              : ek == LLVMHalfTypeKind ? binop_f16(s, op, pa[e], pb[e], &r->p[e])
              : per == 2               ? binop64(s, op, pa + 2 * e, pb + 2 * e, r->p + 2 * e)
                                       : binop32(s, op, int_bits(et), pa[e], pb[e], &r->p[e]);
    if (!ok) {
      isel_error(s, "this %s operation is not supported", per == 2 ? "64-bit" : "arithmetic");
      return;
    }
  }
}

/* icmp on one element; bits = the integer width (0 for pointers) */
static cc_opnd icmp1(isel *s, LLVMIntPredicate p, int bits, cc_opnd a, cc_opnd b) {
  bool sgn = p == LLVMIntSLT || p == LLVMIntSLE || p == LLVMIntSGT || p == LLVMIntSGE;
  if (bits && bits < 32) {
    a = sgn ? sext_op(s, a, bits) : zext_op(s, a, bits);
    b = sgn ? sext_op(s, b, bits) : zext_op(s, b, bits);
  }
  switch (p) {
  case LLVMIntEQ: return alu(s, A_SEQ, a, b);
  case LLVMIntNE: return alu(s, A_SNE, a, b);
  case LLVMIntSLT: return alu(s, A_SLT, a, b);
  case LLVMIntSLE: return alu(s, A_SLE, a, b);
  case LLVMIntSGT: return alu(s, A_SLT, b, a);
  case LLVMIntSGE: return alu(s, A_SLE, b, a);
  case LLVMIntULT: return alu(s, A_SLTU, a, b);
  case LLVMIntULE: return alu(s, A_SLEU, a, b);
  case LLVMIntUGT: return alu(s, A_SLTU, b, a);
  default: return alu(s, A_SLEU, b, a);
  }
}

static cc_opnd icmp64(isel *s, LLVMIntPredicate p, const cc_opnd *a, const cc_opnd *b) {
  if (p == LLVMIntEQ || p == LLVMIntNE) {
    cc_opnd x = alu(s, A_OR, alu(s, A_XOR, a[0], b[0]), alu(s, A_XOR, a[1], b[1]));
    return alu(s, p == LLVMIntEQ ? A_SEQ : A_SNE, x, op_imm(0));
  }
  bool swap = p == LLVMIntSGT || p == LLVMIntSLE || p == LLVMIntUGT || p == LLVMIntULE;
  if (swap) {
    const cc_opnd *t = a;
    a = b;
    b = t;
  }
  bool sgn = p == LLVMIntSLT || p == LLVMIntSLE || p == LLVMIntSGT || p == LLVMIntSGE;
  cc_opnd lt = lt64(s, sgn, a, b);
  bool negate = p == LLVMIntSGE || p == LLVMIntUGE || p == LLVMIntSLE || p == LLVMIntULE;
  return negate ? alu(s, A_XOR, lt, op_imm(1)) : lt;
}

/* one IEEE comparison (A_FEQ, A_FLT, A_FLE, A_FNE) of binary32 values, or
 * of binary64 ones (two parts each, vmf* at SEW 64) when wide */
static cc_opnd fprim(isel *s, alu_kind k, const cc_opnd *a, const cc_opnd *b, bool wide) {
  if (!wide) return alu(s, k, a[0], b[0]);
  cc_op w = k == A_FEQ ? CC_WMFEQ : k == A_FLT ? CC_WMFLT : k == A_FLE ? CC_WMFLE : CC_WMFNE;
  cc_opnd r;
  wide_vv(s, w, a, b, &r, 1);
  return r;
}

static cc_opnd fcmp1(isel *s, LLVMRealPredicate p, const cc_opnd *a, const cc_opnd *b, bool w) {
  cc_opnd ord;
  switch (p) {
  case LLVMRealPredicateFalse: return op_imm(0);
  case LLVMRealPredicateTrue: return op_imm(1);
  case LLVMRealOEQ: return fprim(s, A_FEQ, a, b, w);
  case LLVMRealOGT: return fprim(s, A_FLT, b, a, w);
  case LLVMRealOGE: return fprim(s, A_FLE, b, a, w);
  case LLVMRealOLT: return fprim(s, A_FLT, a, b, w);
  case LLVMRealOLE: return fprim(s, A_FLE, a, b, w);
  case LLVMRealONE: return alu(s, A_OR, fprim(s, A_FLT, a, b, w), fprim(s, A_FLT, b, a, w));
  case LLVMRealUEQ:
    return alu(s, A_XOR, alu(s, A_OR, fprim(s, A_FLT, a, b, w), fprim(s, A_FLT, b, a, w)), op_imm(1));
  case LLVMRealUGT: return alu(s, A_XOR, fprim(s, A_FLE, a, b, w), op_imm(1));
  case LLVMRealUGE: return alu(s, A_XOR, fprim(s, A_FLT, a, b, w), op_imm(1));
  case LLVMRealULT: return alu(s, A_XOR, fprim(s, A_FLE, b, a, w), op_imm(1));
  case LLVMRealULE: return alu(s, A_XOR, fprim(s, A_FLT, b, a, w), op_imm(1));
  case LLVMRealUNE: return fprim(s, A_FNE, a, b, w);
  case LLVMRealORD:
  case LLVMRealUNO:
    ord = alu(s, A_AND, fprim(s, A_FEQ, a, a, w), fprim(s, A_FEQ, b, b, w));
    return p == LLVMRealORD ? ord : alu(s, A_XOR, ord, op_imm(1));
  default: return op_imm(0);
  }
}

static void select_cmp(isel *s, LLVMValueRef i) {
  int nelem, per;
  LLVMTypeRef et;
  shape(LLVMTypeOf(LLVMGetOperand(i, 0)), &nelem, &per, &et);
  cc_val *a = get_val(s, LLVMGetOperand(i, 0)), *b = get_val(s, LLVMGetOperand(i, 1));
  if (!a || !b) return;
  cc_opnd pa[256], pb[256];
  memcpy(pa, a->p, (size_t)a->n * sizeof *pa);
  memcpy(pb, b->p, (size_t)b->n * sizeof *pb);
  cc_val *r = result(s, i, nelem);
  if (!r) return;
  bool fp = LLVMGetInstructionOpcode(i) == LLVMFCmp;
  bool half = LLVMGetTypeKind(et) == LLVMHalfTypeKind;
  for (int e = 0; e < nelem; e++) {
    if (fp && half) { /* exactly as binary32 values */
      cc_opnd fa = cvt_f16(s, CC_VFCVT_F_H, pa[e]), fb = cvt_f16(s, CC_VFCVT_F_H, pb[e]);
      r->p[e] = fcmp1(s, LLVMGetFCmpPredicate(i), &fa, &fb, false);
    } else if (fp) {
      r->p[e] = fcmp1(s, LLVMGetFCmpPredicate(i), pa + per * e, pb + per * e, per == 2);
    } else if (per == 2) {
      r->p[e] = icmp64(s, LLVMGetICmpPredicate(i), pa + 2 * e, pb + 2 * e);
    } else {
      r->p[e] = icmp1(s, LLVMGetICmpPredicate(i), int_bits(et), pa[e], pb[e]);
    }
  }
}

static void select_select(isel *s, LLVMValueRef i) {
  cc_val *c = get_val(s, LLVMGetOperand(i, 0)), *a = get_val(s, LLVMGetOperand(i, 1)),
         *b = get_val(s, LLVMGetOperand(i, 2));
  if (!c || !a || !b) return;
  int n = a->n, nc = c->n;
  cc_opnd pc[256], pa[256], pb[256];
  memcpy(pc, c->p, (size_t)nc * sizeof *pc);
  memcpy(pa, a->p, (size_t)n * sizeof *pa);
  memcpy(pb, b->p, (size_t)n * sizeof *pb);
  cc_val *r = result(s, i, n);
  if (!r) return;
  int per = nc > 1 ? n / nc : n;
  for (int k = 0; k < n; k++) r->p[k] = select_op(s, pc[nc > 1 ? k / per : 0], pa[k], pb[k]);
}

/* float -> integer: fptosi/fptoui rounding toward zero; half converts
 * exactly to float first; 64-bit results from the widening conversion
 * (float) or at SEW 64 (double). A 32-bit (or narrower) result from double
 * is the 64-bit conversion saturated to 32 bits, what RISC-V's fcvt.w.d /
 * fcvt.wu.d give (NaN the largest value), as float -> int saturates. */
static cc_opnd sat32(isel *s, bool unsig, const cc_opnd *t) {
  cc_opnd sign = alu(s, A_SRA, t[1], op_imm(31));
  if (unsig) /* fits when the high word is 0; else 0 below, all ones above */
    return select_op(s, alu(s, A_SEQ, t[1], op_imm(0)), t[0], alu(s, A_XOR, sign, op_imm(-1)));
  cc_opnd fits = alu(s, A_SEQ, t[1], alu(s, A_SRA, t[0], op_imm(31)));
  return select_op(s, fits, t[0], alu(s, A_XOR, sign, op_imm(INT32_MAX)));
}

static bool fp_to_int(isel *s, bool sgn, LLVMTypeKind fk, int tb, const cc_opnd *a, cc_opnd *out) {
  if (fk == LLVMDoubleTypeKind) {
    cc_opnd t[2];
    wide_v(s, !sgn && tb == 64 ? CC_WFCVT_RTZ_XU_F : CC_WFCVT_RTZ_X_F, a, t, 2);
    out[0] = tb == 64 ? t[0] : sat32(s, !sgn && tb == 32, t);
    if (tb == 64) out[1] = t[1];
  } else {
    cc_opnd x = fk == LLVMHalfTypeKind ? cvt_f16(s, CC_VFCVT_F_H, a[0]) : a[0];
    if (tb == 64) {
      wide_from32(s, sgn ? CC_WWCVT_RTZ_X_F : CC_WWCVT_RTZ_XU_F, x, out);
      return true;
    }
    out[0] = fcvt_op(s, sgn || tb < 32 ? CC_FCVT_W_S : CC_FCVT_WU_S, 1,
                     sgn || tb < 32 ? CC_VFCVT_RTZ_X_F : CC_VFCVT_RTZ_XU_F, x);
  }
  if (tb == 1) out[0] = alu(s, A_AND, out[0], op_imm(1));
  return true;
}

/* integer -> float (rounded by frm, RNE): i64 -> float and i64 -> half are
 * software routines (cc_link.c lowers them before selection); half through
 * float, which is exact for every int32 that does not overflow binary16 */
static bool int_to_fp(isel *s, bool sgn, int fb, LLVMTypeKind tk, const cc_opnd *a, cc_opnd *out) {
  if (fb == 64) {
    if (tk != LLVMDoubleTypeKind) return false;
    wide_v(s, sgn ? CC_WFCVT_F_X : CC_WFCVT_F_XU, a, out, 2);
    return true;
  }
  cc_opnd x = sgn ? sext_op(s, a[0], fb) : zext_op(s, a[0], fb);
  if (tk == LLVMDoubleTypeKind) { /* exact */
    wide_from32(s, sgn ? CC_WWCVT_F_X : CC_WWCVT_F_XU, x, out);
    return true;
  }
  if (op_is_imm(x)) x = op_reg(to_sreg(s, x), CC_RC_S);
  out[0] = unary(s, sgn ? CC_FCVT_S_W : CC_FCVT_S_WU, sgn ? CC_VFCVT_F_X : CC_VFCVT_F_XU, x);
  if (tk == LLVMHalfTypeKind) out[0] = cvt_f16(s, CC_VFCVT_H_F, out[0]);
  return true;
}

/* conversions between and from/to floating-point types */
static bool fp_cast(isel *s, LLVMOpcode op, LLVMTypeRef from, LLVMTypeRef to, const cc_opnd *a,
                    cc_opnd *out) {
  LLVMTypeKind fk = LLVMGetTypeKind(from), tk = LLVMGetTypeKind(to);
  switch (op) {
  case LLVMFPToSI: case LLVMFPToUI:
    return fp_to_int(s, op == LLVMFPToSI, fk, int_bits(to), a, out);
  case LLVMSIToFP: case LLVMUIToFP:
    return int_to_fp(s, op == LLVMSIToFP, int_bits(from), tk, a, out);
  case LLVMFPExt: { /* exact */
    cc_opnd x = fk == LLVMHalfTypeKind ? cvt_f16(s, CC_VFCVT_F_H, a[0]) : a[0];
    if (tk == LLVMDoubleTypeKind) wide_from32(s, CC_WWCVT_F_F, x, out);
    else out[0] = x;
    return true;
  }
  case LLVMFPTrunc: /* from double: software (cc_link.c) */
    if (fk != LLVMFloatTypeKind || tk != LLVMHalfTypeKind) return false;
    out[0] = cvt_f16(s, CC_VFCVT_H_F, a[0]);
    return true;
  default:
    return false;
  }
}

/* one element of a cast */
static bool cast1(isel *s, LLVMOpcode op, LLVMTypeRef from, LLVMTypeRef to, const cc_opnd *a,
                  cc_opnd *out) {
  int fb = int_bits(from), tb = int_bits(to);
  switch (op) {
  case LLVMTrunc:
    out[0] = tb == 1 ? alu(s, A_AND, a[0], op_imm(1)) : a[0];
    return true;
  case LLVMZExt:
    out[0] = zext_op(s, a[0], fb);
    if (tb == 64) out[1] = fb == 64 ? a[1] : op_imm(0);
    return true;
  case LLVMSExt:
    out[0] = sext_op(s, a[0], fb);
    if (tb == 64) out[1] = alu(s, A_SRA, out[0], op_imm(31));
    return true;
  case LLVMFPToSI: case LLVMFPToUI: case LLVMSIToFP: case LLVMUIToFP: case LLVMFPExt:
  case LLVMFPTrunc:
    return fp_cast(s, op, from, to, a, out);
  case LLVMPtrToInt: case LLVMIntToPtr: case LLVMAddrSpaceCast:
    out[0] = a[0];
    if (tb == 64) out[1] = op_imm(0);
    return true;
  default:
    return false;
  }
}

/* bits of a type's scalar elements (0: not a plain scalar/vector) */
static int elem_bits(LLVMTypeRef t) {
  if (LLVMGetTypeKind(t) == LLVMVectorTypeKind) t = LLVMGetElementType(t);
  switch (LLVMGetTypeKind(t)) {
  case LLVMIntegerTypeKind: return (int)LLVMGetIntTypeWidth(t);
  case LLVMFloatTypeKind: case LLVMPointerTypeKind: return 32;
  case LLVMHalfTypeKind: return 16;
  case LLVMDoubleTypeKind: return 64;
  default: return 0;
  }
}

/* Bitcast between types whose elements differ in size (<4 x i8> <-> i32,
 * <2 x i16> <-> float, <8 x i1> -> i8, ...): the source elements are
 * packed into 32-bit words (little-endian), the target elements taken out. */
static bool repack(isel *s, LLVMTypeRef from, const cc_opnd *src, LLVMTypeRef to, cc_opnd *dst) {
  int fb = elem_bits(from), tb = elem_bits(to);
  int fn = LLVMGetTypeKind(from) == LLVMVectorTypeKind ? (int)LLVMGetVectorSize(from) : 1;
  int tn = LLVMGetTypeKind(to) == LLVMVectorTypeKind ? (int)LLVMGetVectorSize(to) : 1;
  if (!fb || !tb || fb * fn != tb * tn || fb * fn > 64 * 16 || (fb > 32 && fb != 64) ||
      (tb > 32 && tb != 64))
    return false;
  int nw = (fb * fn + 31) / 32;
  cc_opnd words[64];
  for (int w = 0; w < nw; w++) words[w] = op_imm(0);
  for (int e = 0; e < fn; e++) {
    if (fb >= 32) {
      for (int k = 0; k < fb / 32; k++) words[e * fb / 32 + k] = src[e * fb / 32 + k];
      continue;
    }
    int bit = e * fb;
    cc_opnd v = zext_op(s, src[e], fb);
    words[bit / 32] = alu(s, A_OR, words[bit / 32], alu(s, A_SLL, v, op_imm(bit % 32)));
  }
  for (int e = 0; e < tn; e++) {
    if (tb >= 32) {
      for (int k = 0; k < tb / 32; k++) dst[e * tb / 32 + k] = words[e * tb / 32 + k];
      continue;
    }
    int bit = e * tb;
    dst[e] = alu(s, A_SRL, words[bit / 32], op_imm(bit % 32));
    if (tb == 1) dst[e] = alu(s, A_AND, dst[e], op_imm(1));
  }
  return true;
}

static void select_cast(isel *s, LLVMValueRef i) {
  LLVMOpcode op = LLVMGetInstructionOpcode(i);
  LLVMValueRef src = LLVMGetOperand(i, 0);
  cc_val *a = get_val(s, src);
  if (!a) return;
  int n = parts_of_type(LLVMTypeOf(i));
  if (n < 0) {
    isel_error(s, "conversions to this type are not supported");
    return;
  }
  cc_opnd pa[256];
  memcpy(pa, a->p, (size_t)a->n * sizeof *pa);
  int an = a->n;
  cc_val *r = result(s, i, n);
  if (!r) return;
  if (op == LLVMBitCast) {
    if (an == n && elem_bits(LLVMTypeOf(src)) == elem_bits(LLVMTypeOf(i))) memcpy(r->p, pa, (size_t)n * sizeof *pa);
    else if (!repack(s, LLVMTypeOf(src), pa, LLVMTypeOf(i), r->p))
      isel_error(s, "this bitcast is not supported");
    return;
  }
  int nelem, per_to, per_from;
  LLVMTypeRef te, fe;
  shape(LLVMTypeOf(i), &nelem, &per_to, &te);
  shape(LLVMTypeOf(src), &nelem, &per_from, &fe);
  for (int e = 0; e < nelem; e++)
    if (!cast1(s, op, fe, te, pa + e * per_from, r->p + e * per_to)) {
      isel_error(s, "internal error: this conversion is not supported");
      return;
    }
}

static void select_fneg(isel *s, LLVMValueRef i) {
  cc_val *a = get_val(s, LLVMGetOperand(i, 0));
  if (!a) return;
  cc_opnd pa[256];
  memcpy(pa, a->p, (size_t)a->n * sizeof *pa);
  cc_val *r = result(s, i, a->n);
  if (!r) return;
  LLVMTypeRef t = LLVMTypeOf(i);
  if (LLVMGetTypeKind(t) == LLVMVectorTypeKind) t = LLVMGetElementType(t);
  LLVMTypeKind k = LLVMGetTypeKind(t);
  for (int q = 0; q < r->n; q++) { /* the sign bit flips (the high word's of a double) */
    if (k == LLVMDoubleTypeKind) r->p[q] = q & 1 ? alu(s, A_XOR, pa[q], op_imm(INT32_MIN)) : pa[q];
    else if (k == LLVMHalfTypeKind) r->p[q] = alu(s, A_XOR, pa[q], op_imm(0x8000));
    else r->p[q] = alu(s, A_FSGNJN, pa[q], pa[q]);
  }
}

/* part offset of an aggregate index path */
static int agg_offset(LLVMTypeRef t, const unsigned *idx, unsigned n, LLVMTypeRef *leaf) {
  int off = 0;
  for (unsigned k = 0; k < n; k++) {
    if (LLVMGetTypeKind(t) == LLVMStructTypeKind) {
      for (unsigned f = 0; f < idx[k]; f++) off += parts_of_type(LLVMStructGetTypeAtIndex(t, f));
      t = LLVMStructGetTypeAtIndex(t, idx[k]);
    } else {
      t = LLVMGetElementType(t);
      off += (int)idx[k] * parts_of_type(t);
    }
  }
  *leaf = t;
  return off;
}

static void select_aggregate(isel *s, LLVMValueRef i) {
  LLVMOpcode op = LLVMGetInstructionOpcode(i);
  LLVMValueRef agg = LLVMGetOperand(i, 0);
  cc_val *a = get_val(s, agg);
  if (!a) return;
  cc_opnd pa[256], pv[256];
  memcpy(pa, a->p, (size_t)a->n * sizeof *pa);
  int an = a->n;
  LLVMTypeRef leaf;
  int off = agg_offset(LLVMTypeOf(agg), LLVMGetIndices(i), LLVMGetNumIndices(i), &leaf);
  int ln = parts_of_type(leaf);
  if (op == LLVMExtractValue) {
    cc_val *r = result(s, i, ln);
    if (r) memcpy(r->p, pa + off, (size_t)ln * sizeof *pa);
    return;
  }
  cc_val *v = get_val(s, LLVMGetOperand(i, 1));
  if (!v) return;
  memcpy(pv, v->p, (size_t)v->n * sizeof *pv);
  cc_val *r = result(s, i, an);
  if (!r) return;
  memcpy(r->p, pa, (size_t)an * sizeof *pa);
  memcpy(r->p + off, pv, (size_t)ln * sizeof *pv);
}

static void select_element(isel *s, LLVMValueRef i) {
  LLVMOpcode op = LLVMGetInstructionOpcode(i);
  LLVMValueRef vec = LLVMGetOperand(i, 0);
  int nelem, per;
  LLVMTypeRef et;
  shape(LLVMTypeOf(vec), &nelem, &per, &et);
  cc_val *a = get_val(s, vec);
  if (!a) return;
  cc_opnd pa[256], pv[4];
  memcpy(pa, a->p, (size_t)a->n * sizeof *pa);
  LLVMValueRef idxv = LLVMGetOperand(i, op == LLVMExtractElement ? 1 : 2);
  cc_opnd idx = get_op(s, idxv);
  if (op == LLVMInsertElement) {
    cc_val *v = get_val(s, LLVMGetOperand(i, 1));
    if (!v) return;
    memcpy(pv, v->p, (size_t)per * sizeof *pv);
  }
  cc_val *r = result(s, i, op == LLVMExtractElement ? per : nelem * per);
  if (!r) return;
  if (op == LLVMExtractElement) {
    if (op_is_imm(idx)) {
      int e = idx.k >= 0 && idx.k < nelem ? idx.k : 0;
      memcpy(r->p, pa + e * per, (size_t)per * sizeof *pa);
      return;
    }
    for (int k = 0; k < per; k++) r->p[k] = pa[k];
    for (int e = 1; e < nelem; e++) {
      cc_opnd hit = alu(s, A_SEQ, idx, op_imm(e));
      for (int k = 0; k < per; k++) r->p[k] = select_op(s, hit, pa[e * per + k], r->p[k]);
    }
    return;
  }
  for (int e = 0; e < nelem; e++) {
    cc_opnd hit = op_is_imm(idx) ? op_imm(idx.k == e) : alu(s, A_SEQ, idx, op_imm(e));
    for (int k = 0; k < per; k++) r->p[e * per + k] = select_op(s, hit, pv[k], pa[e * per + k]);
  }
}

static void select_shuffle(isel *s, LLVMValueRef i) {
  LLVMValueRef va = LLVMGetOperand(i, 0);
  int nelem, per;
  LLVMTypeRef et;
  shape(LLVMTypeOf(va), &nelem, &per, &et);
  cc_val *a = get_val(s, va), *b = get_val(s, LLVMGetOperand(i, 1));
  if (!a || !b) return;
  cc_opnd pa[512];
  memcpy(pa, a->p, (size_t)a->n * sizeof *pa);
  memcpy(pa + a->n, b->p, (size_t)b->n * sizeof *pa);
  unsigned m = LLVMGetNumMaskElements(i);
  cc_val *r = result(s, i, (int)m * per);
  if (!r) return;
  for (unsigned e = 0; e < m; e++) {
    int src = LLVMGetMaskValue(i, e);
    for (int k = 0; k < per; k++)
      r->p[e * (unsigned)per + (unsigned)k] = src < 0 ? op_imm(0) : pa[src * per + k];
  }
}

void select_inst(isel *s, LLVMValueRef i) {
  LLVMOpcode op = LLVMGetInstructionOpcode(i);
  switch (op) {
  case LLVMAdd: case LLVMSub: case LLVMMul: case LLVMUDiv: case LLVMSDiv: case LLVMURem:
  case LLVMSRem: case LLVMShl: case LLVMLShr: case LLVMAShr: case LLVMAnd: case LLVMOr:
  case LLVMXor: case LLVMFAdd: case LLVMFSub: case LLVMFMul: case LLVMFDiv:
    select_binop(s, i);
    break;
  case LLVMFNeg: select_fneg(s, i); break;
  case LLVMICmp: case LLVMFCmp: select_cmp(s, i); break;
  case LLVMSelect: select_select(s, i); break;
  case LLVMTrunc: case LLVMZExt: case LLVMSExt: case LLVMFPToSI: case LLVMFPToUI:
  case LLVMSIToFP: case LLVMUIToFP: case LLVMPtrToInt: case LLVMIntToPtr: case LLVMBitCast:
  case LLVMAddrSpaceCast:
    select_cast(s, i);
    break;
  case LLVMFPExt: case LLVMFPTrunc:
    select_cast(s, i);
    break;
  case LLVMExtractValue: case LLVMInsertValue: select_aggregate(s, i); break;
  case LLVMExtractElement: case LLVMInsertElement: select_element(s, i); break;
  case LLVMShuffleVector: select_shuffle(s, i); break;
  case LLVMFreeze: {
    cc_val *a = get_val(s, LLVMGetOperand(i, 0));
    if (!a) break;
    cc_opnd pa[256];
    memcpy(pa, a->p, (size_t)a->n * sizeof *pa);
    cc_val *r = result(s, i, a->n);
    if (r) memcpy(r->p, pa, (size_t)r->n * sizeof *pa);
    break;
  }
  case LLVMLoad: select_load(s, i); break;
  case LLVMStore: select_store(s, i); break;
  case LLVMGetElementPtr: select_gep(s, i); break;
  case LLVMAlloca: break; /* laid out before selection */
  case LLVMCall: select_call(s, i); break;
  case LLVMAtomicRMW: case LLVMAtomicCmpXchg: select_atomic(s, i); break;
  case LLVMFence: emit(s, CC_FENCE, -1, -1, -1, -1, 0); break;
  default:
    isel_error(s, "this IR instruction (opcode %d) is not supported", (int)op);
    break;
  }
}
