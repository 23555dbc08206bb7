/* IR values as parts (cc_isel.h): types, constants, constant expressions,
 * global addresses, and the value map. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cc_isel.h"

void isel_error(isel *s, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  cc_error(s->c, s->at, "%s", msg);
}

bool is_fp_type(LLVMTypeRef t) {
  LLVMTypeKind k = LLVMGetTypeKind(t);
  return k == LLVMFloatTypeKind || k == LLVMHalfTypeKind || k == LLVMDoubleTypeKind;
}

int int_bits(LLVMTypeRef t) {
  return LLVMGetTypeKind(t) == LLVMIntegerTypeKind ? (int)LLVMGetIntTypeWidth(t) : 0;
}

int parts_of_type(LLVMTypeRef t) {
  switch (LLVMGetTypeKind(t)) {
  case LLVMVoidTypeKind: return 0;
  case LLVMIntegerTypeKind: {
    unsigned w = LLVMGetIntTypeWidth(t);
    return w <= 32 ? 1 : w == 64 ? 2 : -1;
  }
  case LLVMHalfTypeKind:
  case LLVMFloatTypeKind:
  case LLVMPointerTypeKind: return 1;
  case LLVMDoubleTypeKind: return 2;
  case LLVMVectorTypeKind: {
    int e = parts_of_type(LLVMGetElementType(t));
    return e < 0 ? -1 : e * (int)LLVMGetVectorSize(t);
  }
  case LLVMArrayTypeKind: {
    int e = parts_of_type(LLVMGetElementType(t));
    long n = e < 0 ? -1 : (long)e * (long)LLVMGetArrayLength(t);
    return n < 0 || n > 256 ? -1 : (int)n;
  }
  case LLVMStructTypeKind: {
    unsigned n = LLVMCountStructElementTypes(t);
    int total = 0;
    for (unsigned i = 0; i < n; i++) {
      int e = parts_of_type(LLVMStructGetTypeAtIndex(t, i));
      if (e < 0 || total + e > 256) return -1;
      total += e;
    }
    return total;
  }
  default: return -1;
  }
}

static int pieces_rec(isel *s, LLVMTypeRef t, uint32_t base, cc_piece *pc, int at, int n) {
  LLVMTargetDataRef td = s->c->td;
  switch (LLVMGetTypeKind(t)) {
  case LLVMIntegerTypeKind: {
    unsigned w = LLVMGetIntTypeWidth(t);
    if (at + (w == 64 ? 2 : 1) > n) return -1;
    if (w == 64) {
      pc[at] = (cc_piece){base, 4};
      pc[at + 1] = (cc_piece){base + 4, 4};
      return at + 2;
    }
    pc[at] = (cc_piece){base, (uint8_t)(w <= 8 ? 1 : w <= 16 ? 2 : 4)};
    return at + 1;
  }
  case LLVMHalfTypeKind:
  case LLVMFloatTypeKind:
  case LLVMPointerTypeKind:
    if (at >= n) return -1;
    pc[at] = (cc_piece){base, LLVMGetTypeKind(t) == LLVMHalfTypeKind ? 2 : 4};
    return at + 1;
  case LLVMDoubleTypeKind:
    if (at + 2 > n) return -1;
    pc[at] = (cc_piece){base, 4};
    pc[at + 1] = (cc_piece){base + 4, 4};
    return at + 2;
  case LLVMVectorTypeKind:
  case LLVMArrayTypeKind: {
    LLVMTypeRef e = LLVMGetElementType(t);
    unsigned cnt = LLVMGetTypeKind(t) == LLVMVectorTypeKind ? LLVMGetVectorSize(t) : LLVMGetArrayLength(t);
    uint32_t stride = (uint32_t)LLVMABISizeOfType(td, e);
    for (unsigned i = 0; i < cnt && at >= 0; i++) at = pieces_rec(s, e, base + i * stride, pc, at, n);
    return at;
  }
  case LLVMStructTypeKind: {
    unsigned cnt = LLVMCountStructElementTypes(t);
    for (unsigned i = 0; i < cnt && at >= 0; i++)
      at = pieces_rec(s, LLVMStructGetTypeAtIndex(t, i),
                      base + (uint32_t)LLVMOffsetOfElement(td, t, i), pc, at, n);
    return at;
  }
  default:
    return -1;
  }
}

int pieces_of_type(isel *s, LLVMTypeRef t, cc_piece *pc, int n) {
  return pieces_rec(s, t, 0, pc, 0, n) == n ? 0 : -1;
}

cc_val *val_new(isel *s, LLVMValueRef v, int n) {
  if (s->nvals == s->capvals) {
    int cap = s->capvals ? 2 * s->capvals : 256;
    cc_val **a = realloc(s->vals, (size_t)cap * sizeof *a);
    if (!a) {
      s->mf->oom = true;
      return NULL;
    }
    s->vals = a;
    s->capvals = cap;
  }
  cc_val *x = malloc(sizeof *x);
  if (!x) {
    s->mf->oom = true;
    return NULL;
  }
  x->n = n;
  x->p = calloc((size_t)(n ? n : 1), sizeof *x->p);
  if (!x->p || cc_ptrmap_put(&s->vmap, v, s->nvals) != 0) {
    free(x->p);
    free(x);
    s->mf->oom = true;
    return NULL;
  }
  s->vals[s->nvals++] = x;
  return x;
}

static uint32_t float_bits(LLVMValueRef c) {
  LLVMBool lossy;
  float f = (float)LLVMConstRealGetDouble(c, &lossy);
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}

/* binary16 bits of a half constant (its value is exact in a double; a NaN
 * becomes the canonical one) */
static uint32_t half_bits(LLVMValueRef c) {
  LLVMBool lossy;
  double d = LLVMConstRealGetDouble(c, &lossy);
  uint32_t sign = signbit(d) ? 0x8000 : 0;
  d = fabs(d);
  if (isnan(d)) return 0x7e00;
  if (isinf(d) || d >= 65536.0) return sign | 0x7c00;
  int e;
  double m = frexp(d, &e); /* d = m * 2^e, 0.5 <= m < 1 */
  if (d == 0) return sign;
  if (e < -13) return sign | (uint32_t)ldexp(d, 24); /* subnormal: d / 2^-24 */
  return sign | (uint32_t)(e + 14) << 10 | ((uint32_t)ldexp(m, 11) & 0x3ff);
}

/* Immediate parts of a constant; false if it is not a plain constant. */
static bool const_parts(isel *s, LLVMValueRef c, cc_opnd *p, int n) {
  LLVMTypeRef t = LLVMTypeOf(c);
  if (LLVMIsUndef(c) || LLVMIsPoison(c) || LLVMIsAConstantAggregateZero(c) || LLVMIsNull(c)) {
    for (int i = 0; i < n; i++) p[i] = op_imm(0);
    return true;
  }
  if (LLVMIsAConstantInt(c)) {
    unsigned w = LLVMGetIntTypeWidth(t);
    long long v = LLVMConstIntGetSExtValue(c);
    p[0] = op_imm((int32_t)(uint32_t)(unsigned long long)v);
    if (w == 64) p[1] = op_imm((int32_t)(uint32_t)((unsigned long long)v >> 32));
    if (w == 1) p[0] = op_imm((int32_t)(v & 1));
    return true;
  }
  if (LLVMIsAConstantFP(c)) {
    LLVMTypeKind k = LLVMGetTypeKind(t);
    if (k == LLVMDoubleTypeKind) {
      LLVMBool lossy;
      double d = LLVMConstRealGetDouble(c, &lossy);
      uint64_t u;
      memcpy(&u, &d, 8);
      p[0] = op_imm((int32_t)(uint32_t)u);
      p[1] = op_imm((int32_t)(uint32_t)(u >> 32));
      return true;
    }
    if (k != LLVMFloatTypeKind && k != LLVMHalfTypeKind) return false;
    p[0] = op_imm((int32_t)(k == LLVMHalfTypeKind ? half_bits(c) : float_bits(c)));
    return true;
  }
  if (LLVMIsAConstantDataSequential(c) || LLVMIsAConstantVector(c) || LLVMIsAConstantStruct(c) ||
      LLVMIsAConstantArray(c)) {
    unsigned cnt = LLVMGetTypeKind(t) == LLVMStructTypeKind ? LLVMCountStructElementTypes(t)
                   : LLVMGetTypeKind(t) == LLVMVectorTypeKind ? LLVMGetVectorSize(t)
                                                              : LLVMGetArrayLength(t);
    int at = 0;
    for (unsigned i = 0; i < cnt; i++) {
      LLVMValueRef e = LLVMIsAConstantDataSequential(c) ? LLVMGetElementAsConstant(c, i)
                                                        : LLVMGetOperand(c, i);
      int m = parts_of_type(LLVMTypeOf(e));
      if (m < 0 || at + m > n) return false;
      cc_val *ev = get_val(s, e);
      if (!ev) return false;
      memcpy(p + at, ev->p, (size_t)m * sizeof *p);
      at += m;
    }
    return at == n;
  }
  return false;
}

/* A constant expression computing an address or an integer from one. */
static bool const_expr(isel *s, LLVMValueRef c, cc_opnd *p) {
  LLVMOpcode op = LLVMGetConstOpcode(c);
  switch (op) {
  case LLVMGetElementPtr: {
    cc_addr a;
    if (!addr_of(s, c, &a)) return false;
    *p = alu(s, A_ADD, a.base, op_imm(a.off));
    return true;
  }
  case LLVMBitCast: case LLVMAddrSpaceCast: case LLVMPtrToInt: case LLVMIntToPtr: {
    if (parts_of_type(LLVMTypeOf(LLVMGetOperand(c, 0))) != 1) return false;
    *p = get_op(s, LLVMGetOperand(c, 0));
    return true;
  }
  default:
    return false;
  }
}

/* Per machine block: a register already holding the address of g. */
static int cached(isel *s, const void *key) {
  if (s->cache_block != s->cur) {
    cc_ptrmap_free(&s->cache);
    s->cache_block = s->cur;
  }
  return cc_ptrmap_get(&s->cache, key);
}

void cc_global_symbol(LLVMValueRef g, char *buf, size_t n);

int global_address(isel *s, LLVMValueRef g) {
  int r = cached(s, g);
  if (r >= 0) return r;
  LLVMTypeRef t = LLVMTypeOf(g);
  r = new_reg(s, CC_RC_S);
  if (LLVMGetPointerAddressSpace(t) == 3) { /* __local: after the warp stacks, at s0 */
    int off = cc_ptrmap_get(&s->locals, g);
    if (off < 0) {
      LLVMTypeRef vt = LLVMGlobalGetValueType(g);
      uint32_t size = (uint32_t)LLVMABISizeOfType(s->c->td, vt);
      uint32_t al = LLVMGetAlignment(g);
      if (al < 4) al = 4;
      off = (int)((s->local_top + al - 1) & ~(al - 1));
      s->local_top = (uint32_t)off + size;
      if (cc_ptrmap_put(&s->locals, g, off) != 0) s->mf->oom = true;
    }
    if (off < 2048) {
      emit(s, CC_ADDI, r, CC_X(8), -1, -1, off);
    } else {
      int t2 = new_reg(s, CC_RC_S);
      emit(s, CC_LI, t2, -1, -1, -1, off);
      emit(s, CC_ADD, r, CC_X(8), t2, -1, 0);
    }
  } else {
    char sym[512];
    cc_global_symbol(g, sym, sizeof sym);
    cc_mi *mi = emit(s, CC_LA, r, -1, -1, -1, 0);
    if (mi) mi->sym = cc_mf_str(s->mf, sym);
  }
  if (cc_ptrmap_put(&s->cache, g, r) != 0) s->mf->oom = true;
  return r;
}

cc_val *get_val(isel *s, LLVMValueRef v) {
  int i = cc_ptrmap_get(&s->vmap, v);
  if (i >= 0) return s->vals[i];
  int n = parts_of_type(LLVMTypeOf(v));
  if (n < 0) {
    isel_error(s, "values of this type are not supported (integers wider than 64 bits or large "
                  "aggregates)");
    return NULL;
  }
  if (LLVMIsAAllocaInst(v)) { /* its offset in private memory */
    cc_val *x = val_new(s, v, 1);
    int off = cc_ptrmap_get(&s->allocas, v);
    if (x) x->p[0] = op_imm(off < 0 ? 0 : off);
    return x;
  }
  if (LLVMIsAInstruction(v) || LLVMIsAArgument(v)) {
    isel_error(s, "internal error: a value is used before it is defined");
    return NULL;
  }
  if (LLVMIsAFunction(v)) {
    isel_error(s, "function pointers are not supported");
    return NULL;
  }
  cc_opnd tmp[256];
  if (LLVMIsAGlobalVariable(v)) {
    tmp[0] = op_reg(global_address(s, v), CC_RC_S);
  } else if (LLVMIsAConstantExpr(v)) {
    if (n != 1 || !const_expr(s, v, &tmp[0])) {
      isel_error(s, "unsupported constant expression");
      return NULL;
    }
  } else if (!const_parts(s, v, tmp, n)) {
    isel_error(s, "unsupported constant (an unusual kind)");
    return NULL;
  }
  /* registers of addresses are per block: do not remember them */
  bool regs = false;
  for (int k = 0; k < n; k++) regs |= tmp[k].kind == OPK_REG;
  if (regs) { /* a slot of the ring of short-lived values */
    cc_val *x = &s->tmpvals[s->ntmp++ % CC_TMPVALS];
    cc_opnd *p = realloc(x->p, (size_t)n * sizeof *p);
    if (!p) {
      s->mf->oom = true;
      return NULL;
    }
    memcpy(p, tmp, (size_t)n * sizeof *p);
    x->p = p;
    x->n = n;
    return x;
  }
  cc_val *x = val_new(s, v, n);
  if (!x) return NULL;
  memcpy(x->p, tmp, (size_t)n * sizeof *tmp);
  return x;
}

cc_opnd get_op(isel *s, LLVMValueRef v) {
  cc_val *x = get_val(s, v);
  if (!x || x->n < 1) return op_imm(0);
  return x->p[0];
}
