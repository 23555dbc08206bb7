/* Calls: the back end's intrinsics (__vt_*, src/cc/clc/vtclc.cl), the LLVM
 * intrinsics that remain after optimisation (fused multiply-add, fabs,
 * rounding, min/max, bit counting, funnel shifts, memcpy/memset) and
 * printf (cc_isel_lane.c). Every other call was inlined or reported before
 * the back end runs (cc_passes.c). */
#include <string.h>

#include "cc_isel.h"

static bool name_is(const char *name, size_t n, const char *s) {
  return strlen(s) == n && !memcmp(name, s, n);
}

static bool prefix(const char *name, const char *p) { return !strncmp(name, p, strlen(p)); }

/* operand k of the call, all parts */
static int args(isel *s, LLVMValueRef call, unsigned k, cc_opnd *out) {
  cc_val *v = get_val(s, LLVMGetOperand(call, k));
  if (!v) return -1;
  memcpy(out, v->p, (size_t)v->n * sizeof *out);
  return v->n;
}

static cc_opnd popcount(isel *s, cc_opnd x) {
  x = alu(s, A_SUB, x, alu(s, A_AND, alu(s, A_SRL, x, op_imm(1)), op_imm(0x55555555)));
  x = alu(s, A_ADD, alu(s, A_AND, x, op_imm(0x33333333)),
          alu(s, A_AND, alu(s, A_SRL, x, op_imm(2)), op_imm(0x33333333)));
  x = alu(s, A_AND, alu(s, A_ADD, x, alu(s, A_SRL, x, op_imm(4))), op_imm(0x0f0f0f0f));
  return alu(s, A_SRL, alu(s, A_MUL, x, op_imm(0x01010101)), op_imm(24));
}

static cc_opnd bitcount(isel *s, int which, cc_opnd x) {
  if (which == 0) { /* ctlz: smear the leading one to the right, count */
    for (int sh = 1; sh <= 16; sh *= 2) x = alu(s, A_OR, x, alu(s, A_SRL, x, op_imm(sh)));
    return alu(s, A_SUB, op_imm(32), popcount(s, x));
  }
  if (which == 1) /* cttz: the trailing zeros become ones */
    return popcount(s, alu(s, A_SUB, alu(s, A_AND, x, alu(s, A_SUB, op_imm(0), x)), op_imm(1)));
  return popcount(s, x);
}

static cc_opnd funnel(isel *s, bool left, cc_opnd a, cc_opnd b, cc_opnd c) {
  c = alu(s, A_AND, c, op_imm(31));
  cc_opnd inv = alu(s, A_SUB, op_imm(31), c);
  if (left) /* (a << c) | (b >> 1 >> (31 - c)) */
    return alu(s, A_OR, alu(s, A_SLL, a, c), alu(s, A_SRL, alu(s, A_SRL, b, op_imm(1)), inv));
  return alu(s, A_OR, alu(s, A_SRL, b, c), alu(s, A_SLL, alu(s, A_SLL, a, op_imm(1)), inv));
}

/* The kinds of the intrinsic table below: 1 fma, 2 fabs, 3 binary (arg: the
 * operation), 4 sqrt, 5 rounding (arg: rounding mode), 6 bit counting (arg:
 * 0 ctlz, 1 cttz, 2 ctpop), 7 funnel shift, 8 abs. */

/* one binary64 element (parts x, y, z), result in o[0..1] */
static bool intrinsic_f64(isel *s, int kind, int arg, const cc_opnd *x, const cc_opnd *y,
                          const cc_opnd *z, cc_opnd *o) {
  switch (kind) {
  case 1: wide_fma(s, x, y, z, o); return true;
  case 2: wide_fabs(s, x, o); return true;
  case 3:
    if (arg == A_FSGNJ) wide_copysign(s, x, y, o);
    else if (arg == A_FMIN || arg == A_FMAX) wide_vv(s, arg == A_FMIN ? CC_WFMIN : CC_WFMAX, x, y, o, 2);
    else return false;
    return true;
  case 4: wide_v(s, CC_WFSQRT, x, o, 2); return true;
  case 5: wide_round(s, arg, x, o); return true;
  default: return false;
  }
}

/* one binary16 element: through binary32, which is exact for everything
 * here but fma (cc_link.c computes that in binary64) and correctly rounded
 * for sqrt (the double-rounding bound of binop_f16 in cc_isel_inst.c) */
static bool intrinsic_f16(isel *s, int kind, int arg, cc_opnd x, cc_opnd y, cc_opnd *o) {
  if (kind == 2) {
    *o = alu(s, A_AND, x, op_imm(0x7fff));
    return true;
  }
  if (kind == 3 && arg == A_FSGNJ) {
    *o = alu(s, A_OR, alu(s, A_AND, x, op_imm(0x7fff)), alu(s, A_AND, y, op_imm(0x8000)));
    return true;
  }
  cc_opnd fx = cvt_f16(s, CC_VFCVT_F_H, x), r;
  if (kind == 3 && (arg == A_FMIN || arg == A_FMAX)) r = alu(s, (alu_kind)arg, fx, cvt_f16(s, CC_VFCVT_F_H, y));
  else if (kind == 4) r = unary(s, CC_FSQRT, CC_VFSQRT, fx);
  else if (kind == 5) r = round_op(s, arg, fx);
  else return false;
  *o = cvt_f16(s, CC_VFCVT_H_F, r);
  return true;
}

/* 64-bit funnel shifts: fshl = x << n | y >> (64 - n), fshr = x << (64 - n)
 * | y >> n, n = z mod 64; the second shift goes in two steps (by 1, then
 * by 63 - n) so that n = 0 needs no shift by 64 */
static void funnel64(isel *s, bool left, const cc_opnd *x, const cc_opnd *y, const cc_opnd *z,
                     cc_opnd *o) {
  cc_opnd n = alu(s, A_AND, z[0], op_imm(63)), inv = alu(s, A_SUB, op_imm(63), n), t[2], u[2], v[2];
  if (left) {
    shift64(s, LLVMShl, x, n, t);
    shift64(s, LLVMLShr, y, op_imm(1), u);
    shift64(s, LLVMLShr, u, inv, v);
  } else {
    shift64(s, LLVMLShr, y, n, t);
    shift64(s, LLVMShl, x, op_imm(1), u);
    shift64(s, LLVMShl, u, inv, v);
  }
  for (int k = 0; k < 2; k++) o[k] = alu(s, A_OR, t[k], v[k]);
}

/* one 64-bit integer element (parts lo, hi) */
static bool intrinsic_i64(isel *s, int kind, int arg, const cc_opnd *x, const cc_opnd *y,
                          const cc_opnd *z, cc_opnd *o) {
  switch (kind) {
  case 7: funnel64(s, arg == 1, x, y, z, o); return true;
  case 3: { /* smin, smax, umin, umax */
    bool sgn = arg == A_MIN || arg == A_MAX, min = arg == A_MIN || arg == A_MINU;
    cc_opnd lt = lt64(s, sgn, x, y);
    for (int k = 0; k < 2; k++) o[k] = min ? select_op(s, lt, x[k], y[k]) : select_op(s, lt, y[k], x[k]);
    return true;
  }
  case 6: {
    if (arg == 2) {
      o[0] = alu(s, A_ADD, bitcount(s, 2, x[0]), bitcount(s, 2, x[1]));
    } else { /* ctlz: the high word's unless it is 0; cttz: the low word's */
      cc_opnd first = arg == 0 ? x[1] : x[0], second = arg == 0 ? x[0] : x[1];
      cc_opnd zero = alu(s, A_SEQ, first, op_imm(0));
      o[0] = select_op(s, zero, alu(s, A_ADD, bitcount(s, arg, second), op_imm(32)),
                       bitcount(s, arg, first));
    }
    o[1] = op_imm(0);
    return true;
  }
  case 8: { /* abs: -x when x < 0 */
    cc_opnd neg = alu(s, A_SRA, x[1], op_imm(31)), t[2];
    for (int k = 0; k < 2; k++) t[k] = alu(s, A_XOR, x[k], neg); /* ~x or x */
    cc_opnd lo = alu(s, A_SUB, t[0], neg);                         /* + 1 or + 0 */
    cc_opnd borrow = alu(s, A_SLTU, lo, t[0]);                     /* carry out of the low word */
    o[0] = lo;
    o[1] = alu(s, A_ADD, t[1], borrow);
    return true;
  }
  default:
    return false;
  }
}

/* Element-wise LLVM intrinsics over 32-bit parts; false if unknown. */
static bool intrinsic(isel *s, LLVMValueRef call, const char *name) {
  static const struct { const char *name; int kind; int arg; } tab[] = {
      {"llvm.fmuladd.", 1, 0}, {"llvm.fma.", 1, 0},       {"llvm.fabs.", 2, A_FSGNJX},
      {"llvm.copysign.", 3, A_FSGNJ}, {"llvm.minnum.", 3, A_FMIN}, {"llvm.maxnum.", 3, A_FMAX},
      {"llvm.smin.", 3, A_MIN}, {"llvm.smax.", 3, A_MAX},  {"llvm.umin.", 3, A_MINU},
      {"llvm.umax.", 3, A_MAXU}, {"llvm.sqrt.", 4, 0},     {"llvm.floor.", 5, 2},
      {"llvm.ceil.", 5, 3},     {"llvm.trunc.", 5, 1},     {"llvm.rint.", 5, 0},
      {"llvm.nearbyint.", 5, 0}, {"llvm.round.", 5, 4},    {"llvm.ctlz.", 6, 0},
      {"llvm.cttz.", 6, 1},     {"llvm.ctpop.", 6, 2},     {"llvm.fshl.", 7, 1},
      {"llvm.fshr.", 7, 0},     {"llvm.abs.", 8, 0},
  };
  int t = -1;
  for (size_t k = 0; k < sizeof tab / sizeof tab[0]; k++)
    if (prefix(name, tab[k].name)) t = (int)k;
  if (t < 0) return false;
  LLVMTypeRef rt = LLVMTypeOf(call);
  LLVMTypeRef et = LLVMGetTypeKind(rt) == LLVMVectorTypeKind ? LLVMGetElementType(rt) : rt;
  LLVMTypeKind ek = LLVMGetTypeKind(et);
  int bits = int_bits(et), kind = tab[t].kind;
  bool i64_ok = kind >= 6 || (kind == 3 && bits);
  if (bits > 64 || (bits == 64 && !i64_ok) || (bits && bits < 32 && kind >= 6)) {
    isel_error(s, "%s on this type is not supported", name);
    return true;
  }
  cc_opnd a[256], b[256], c[256];
  int n = args(s, call, 0, a);
  if (n < 0) return true;
  unsigned nargs = (unsigned)LLVMGetNumArgOperands(call);
  if (nargs > 1 && kind != 6 && kind != 8 && args(s, call, 1, b) < 0) return true;
  if (nargs > 2 && (kind == 1 || kind == 7) && args(s, call, 2, c) < 0) return true;
  cc_val *r = val_new(s, call, n);
  if (!r) return true;
  if (ek == LLVMDoubleTypeKind || ek == LLVMHalfTypeKind || bits == 64) {
    int per = parts_of_type(et);
    for (int e = 0; e < n / per; e++) {
      const cc_opnd *x = a + e * per, *y = b + e * per, *z = c + e * per;
      bool ok = ek == LLVMDoubleTypeKind ? intrinsic_f64(s, kind, tab[t].arg, x, y, z, r->p + e * per)
                : ek == LLVMHalfTypeKind ? intrinsic_f16(s, kind, tab[t].arg, x[0], y[0], r->p + e)
                                         : intrinsic_i64(s, kind, tab[t].arg, x, y, z, r->p + e * per);
      if (!ok) {
        isel_error(s, "%s on this type is not supported", name);
        return true;
      }
    }
    return true;
  }
  for (int k = 0; k < n; k++) {
    switch (tab[t].kind) {
    case 1: r->p[k] = fma_op(s, a[k], b[k], c[k]); break;
    case 2: r->p[k] = alu(s, (alu_kind)tab[t].arg, a[k], a[k]); break;
    case 3: r->p[k] = alu(s, (alu_kind)tab[t].arg, a[k], b[k]); break;
    case 4: r->p[k] = unary(s, CC_FSQRT, CC_VFSQRT, a[k]); break;
    case 5: r->p[k] = round_op(s, tab[t].arg, a[k]); break;
    case 6: r->p[k] = bitcount(s, tab[t].arg, a[k]); break;
    case 7: r->p[k] = funnel(s, tab[t].arg, a[k], b[k], c[k]); break;
    case 8: {
      cc_opnd x = bits && bits < 32 ? sext_op(s, a[k], bits) : a[k];
      r->p[k] = alu(s, A_MAX, x, alu(s, A_SUB, op_imm(0), x));
      break;
    }
    }
  }
  return true;
}

static bool ignored_intrinsic(const char *name) {
  static const char *const names[] = {"llvm.lifetime.", "llvm.dbg.", "llvm.assume",
                                      "llvm.experimental.noalias.scope.decl", "llvm.invariant.",
                                      "llvm.sideeffect", "llvm.donothing", "llvm.var.annotation"};
  for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
    if (prefix(name, names[k])) return true;
  return false;
}

static cc_val *one(isel *s, LLVMValueRef call, cc_opnd v) {
  cc_val *r = val_new(s, call, 1);
  if (r) r->p[0] = v;
  return r;
}

/* __vt_* intrinsics of the device library */
static bool vt_intrinsic(isel *s, LLVMValueRef call, const char *name, size_t n) {
  if (name_is(name, n, "__vt_lane")) {
    int r = new_reg(s, CC_RC_V);
    emit(s, CC_VID, r, -1, -1, -1, 0);
    one(s, call, op_reg(r, CC_RC_V));
  } else if (name_is(name, n, "__vt_csr")) {
    cc_opnd csr = get_op(s, LLVMGetOperand(call, 0));
    if (!op_is_imm(csr)) {
      isel_error(s, "internal error: CSR number is not a constant");
      return true;
    }
    int r = new_reg(s, CC_RC_S);
    emit(s, CC_CSRR, r, -1, -1, -1, csr.k);
    one(s, call, op_reg(r, CC_RC_S));
  } else if (name_is(name, n, "__vt_knl")) { /* a word of the kernel metadata buffer */
    int knl = new_reg(s, CC_RC_S);
    emit(s, CC_CSRR, knl, -1, -1, -1, 0x803);
    cc_addr a = {op_reg(knl, CC_RC_S), 0, false};
    cc_opnd off = get_op(s, LLVMGetOperand(call, 0));
    if (op_is_imm(off)) a.off = off.k;
    else a.base = alu(s, A_ADD, a.base, off);
    cc_piece pc = {0, 4};
    cc_opnd v;
    load_pieces(s, &a, &pc, 1, false, &v);
    one(s, call, v);
  } else if (name_is(name, n, "__vt_barrier")) {
    cc_opnd f = get_op(s, LLVMGetOperand(call, 0));
    /* barrier x0, x0, flags: imm[2:0] the fence flags (isa.md 2.5) */
    emit(s, CC_BARRIER, -1, -1, -1, -1, op_is_imm(f) ? (f.k & 7) : 3);
  } else if (name_is(name, n, "__vt_fence")) {
    emit(s, CC_FENCE, -1, -1, -1, -1, 0);
  } else {
    return false;
  }
  return true;
}

void select_call(isel *s, LLVMValueRef i) {
  LLVMValueRef callee = LLVMGetCalledValue(i);
  if (!callee || !LLVMIsAFunction(callee)) {
    isel_error(s, "calls through function pointers are not supported");
    return;
  }
  size_t n;
  const char *name = LLVMGetValueName2(callee, &n);
  if (!strncmp(name, "llvm.", 5)) {
    if (ignored_intrinsic(name)) return;
    if (prefix(name, "llvm.memcpy.") || prefix(name, "llvm.memmove.")) {
      select_memcpy(s, i, false);
      return;
    }
    if (prefix(name, "llvm.memset.")) {
      select_memcpy(s, i, true);
      return;
    }
    if (!intrinsic(s, i, name)) isel_error(s, "the LLVM intrinsic %s is not supported", name);
    return;
  }
  if (vt_intrinsic(s, i, name, n)) return;
  if (name_is(name, n, "printf")) {
    select_printf(s, i);
    return;
  }
  isel_error(s, "call to '%.*s' is not supported", (int)n, name);
}
