/* Global data of the program: __constant variables and string literals go
 * to .rodata, other program-scope variables to .data, each under a local
 * symbol derived from its LLVM name. __local variables are not data: the
 * back end places them after the warp stacks at s0 (cc_isel_val.c). */
#include <stdio.h>
#include <string.h>

#include "cc_emit.h"

void cc_global_symbol(LLVMValueRef g, char *buf, size_t n) {
  size_t len;
  const char *name = LLVMGetValueName2(g, &len);
  size_t w = (size_t)snprintf(buf, n, ".Lg_");
  if (!len) { /* unnamed: its address keeps it unique within the compilation */
    snprintf(buf + w, n - w, "anon%lx", (unsigned long)(uintptr_t)g);
    return;
  }
  for (size_t i = 0; i < len && w + 4 < n; i++) {
    char ch = name[i];
    bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
              ch == '_';
    if (ok) buf[w++] = ch;
    else w += (size_t)snprintf(buf + w, n - w, "$%02x", (unsigned char)ch);
  }
  buf[w] = 0;
}

/* A pointer in an initializer: the address of a global plus an offset. */
static int pointer_word(cc_ctx *c, cc_buf *o, LLVMValueRef v) {
  LLVMTargetDataRef td = c->td;
  LLVMValueRef base = v;
  long long off = 0;
  while (LLVMIsAConstantExpr(base)) {
    LLVMOpcode op = LLVMGetConstOpcode(base);
    if (op == LLVMGetElementPtr) {
      LLVMValueRef i0 = LLVMGetOperand(base, 1);
      if (LLVMGetNumOperands(base) == 3 && LLVMIsAConstantInt(i0) && LLVMConstIntGetZExtValue(i0) == 0 &&
          LLVMIsAConstantInt(LLVMGetOperand(base, 2))) {
        LLVMTypeRef st = LLVMGetGEPSourceElementType(base);
        off += (long long)(LLVMConstIntGetSExtValue(LLVMGetOperand(base, 2)) *
                           (long long)LLVMABISizeOfType(td, LLVMGetElementType(st)));
      } else if (LLVMGetNumOperands(base) != 2 || !LLVMIsAConstantInt(i0) ||
                 LLVMConstIntGetZExtValue(i0) != 0) {
        break;
      }
    } else if (op != LLVMBitCast && op != LLVMAddrSpaceCast) {
      break;
    }
    base = LLVMGetOperand(base, 0);
  }
  if (!LLVMIsAGlobalVariable(base)) {
    cc_error(c, NULL, "unsupported pointer in the initializer of a global variable");
    return -1;
  }
  char sym[512];
  cc_global_symbol(base, sym, sizeof sym);
  cc_buf_printf(o, "    .word %s%+lld\n", sym, off);
  return 0;
}

/* Appends the bytes of constant c (type t) at the current position. */
static int bytes(cc_ctx *c, cc_buf *o, LLVMValueRef v, LLVMTypeRef t) {
  LLVMTargetDataRef td = c->td;
  unsigned long long size = LLVMABISizeOfType(td, t);
  if (LLVMIsUndef(v) || LLVMIsAConstantAggregateZero(v) || LLVMIsNull(v)) {
    if (size) cc_buf_printf(o, "    .zero %llu\n", size);
    return 0;
  }
  switch (LLVMGetTypeKind(t)) {
  case LLVMIntegerTypeKind: {
    unsigned w = LLVMGetIntTypeWidth(t);
    unsigned long long x = LLVMConstIntGetZExtValue(v);
    const char *dir = w <= 8 ? ".byte" : w <= 16 ? ".half" : w <= 32 ? ".word" : ".dword";
    cc_buf_printf(o, "    %s 0x%llx\n", dir, x);
    return 0;
  }
  case LLVMFloatTypeKind: {
    LLVMBool lossy;
    float f = (float)LLVMConstRealGetDouble(v, &lossy);
    uint32_t u;
    memcpy(&u, &f, 4);
    cc_buf_printf(o, "    .word 0x%08x\n", u);
    return 0;
  }
  case LLVMDoubleTypeKind: { /* libclc's double tables */
    LLVMBool lossy;
    double d = LLVMConstRealGetDouble(v, &lossy);
    uint64_t u;
    memcpy(&u, &d, 8);
    cc_buf_printf(o, "    .word 0x%08x, 0x%08x\n", (unsigned)(uint32_t)u, (unsigned)(u >> 32));
    return 0;
  }
  case LLVMPointerTypeKind:
    return pointer_word(c, o, v);
  case LLVMArrayTypeKind:
  case LLVMVectorTypeKind: {
    LLVMTypeRef e = LLVMGetElementType(t);
    unsigned n = LLVMGetTypeKind(t) == LLVMArrayTypeKind ? LLVMGetArrayLength(t) : LLVMGetVectorSize(t);
    unsigned long long stride = LLVMABISizeOfType(td, e), done = 0;
    for (unsigned i = 0; i < n; i++) {
      LLVMValueRef ev = LLVMIsAConstantDataSequential(v) ? LLVMGetElementAsConstant(v, i) : LLVMGetOperand(v, i);
      if (bytes(c, o, ev, e) != 0) return -1;
      unsigned long long es = LLVMABISizeOfType(td, e);
      if (stride > es) cc_buf_printf(o, "    .zero %llu\n", stride - es);
      done += stride;
    }
    if (size > done) cc_buf_printf(o, "    .zero %llu\n", size - done);
    return 0;
  }
  case LLVMStructTypeKind: {
    unsigned n = LLVMCountStructElementTypes(t);
    unsigned long long at = 0;
    for (unsigned i = 0; i < n; i++) {
      unsigned long long off = LLVMOffsetOfElement(td, t, i);
      if (off > at) cc_buf_printf(o, "    .zero %llu\n", off - at);
      LLVMTypeRef ft = LLVMStructGetTypeAtIndex(t, i);
      if (bytes(c, o, LLVMGetOperand(v, i), ft) != 0) return -1;
      at = off + LLVMABISizeOfType(td, ft);
    }
    if (size > at) cc_buf_printf(o, "    .zero %llu\n", size - at);
    return 0;
  }
  default:
    cc_error(c, NULL, "a global variable of an unsupported type (half?)");
    return -1;
  }
}

int cc_emit_data(cc_ctx *c, cc_buf *out) {
  for (LLVMValueRef g = LLVMGetFirstGlobal(c->mod); g; g = LLVMGetNextGlobal(g)) {
    LLVMTypeRef pt = LLVMTypeOf(g);
    unsigned as = LLVMGetPointerAddressSpace(pt);
    if (as == 3 || LLVMIsDeclaration(g) || !LLVMGetFirstUse(g)) continue;
    LLVMTypeRef vt = LLVMGlobalGetValueType(g);
    char sym[512];
    cc_global_symbol(g, sym, sizeof sym);
    unsigned al = LLVMGetAlignment(g);
    if (al < 4) al = 4;
    unsigned p2 = 0;
    while ((1u << p2) < al) p2++;
    cc_buf_printf(out, "    .section %s\n    .p2align %u\n%s:\n",
                  (as == 2 || LLVMIsGlobalConstant(g)) ? ".rodata" : ".data", p2, sym);
    LLVMValueRef init = LLVMGetInitializer(g);
    if (!init) {
      cc_buf_printf(out, "    .zero %llu\n", LLVMABISizeOfType(c->td, vt));
      continue;
    }
    if (bytes(c, out, init, vt) != 0) return -1;
  }
  return 0;
}
