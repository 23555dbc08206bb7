/* printf arguments of floating type (docs/printf.md, "Argument layout"):
 * with cl_khr_fp64, clang passes every float argument of printf as a
 * double (OpenCL C 1.2 6.12.13.2: "converted to a double only if the
 * double data type is supported"). The host formats a scalar %f, %e, %g or
 * %a from a 4-byte float, and from an 8-byte double when the conversion
 * carries the length modifier l. So, per printf call with a constant format:
 *   - a double that is a float widened by clang (fpext) and printed without
 *     l is passed as the float again (4 bytes, as before fp64);
 *   - any other double printed by a scalar floating conversion without l
 *     gets an l in a rewritten copy of the format (8 bytes).
 * A call whose format is not a constant string passes widened floats as
 * floats; a genuine double argument is then an error, since nothing can
 * tell the host its size. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cc_internal.h"

/* the constant string behind a format pointer, or NULL */
static const char *format_text(LLVMValueRef p, size_t *len, LLVMValueRef *global) {
  while (p && LLVMIsAConstantExpr(p) &&
         (LLVMGetConstOpcode(p) == LLVMGetElementPtr || LLVMGetConstOpcode(p) == LLVMBitCast ||
          LLVMGetConstOpcode(p) == LLVMAddrSpaceCast)) {
    if (LLVMGetConstOpcode(p) == LLVMGetElementPtr)
      for (int k = 1; k < LLVMGetNumOperands(p); k++) {
        LLVMValueRef idx = LLVMGetOperand(p, k);
        if (!LLVMIsAConstantInt(idx) || LLVMConstIntGetZExtValue(idx) != 0) return NULL;
      }
    p = LLVMGetOperand(p, 0);
  }
  if (!p || !LLVMIsAGlobalVariable(p) || !LLVMIsGlobalConstant(p)) return NULL;
  LLVMValueRef init = LLVMGetInitializer(p);
  if (!init || !LLVMIsAConstantDataSequential(init) || !LLVMIsConstantString(init)) return NULL;
  *global = p;
  return LLVMGetAsString(init, len);
}

/* The conversions of a format (the host's grammar, src/runtime/
 * rt_printf_format.c): for the k-th one, conv[k] is the offset of its
 * conversion character, scalar_float[k] whether it is a scalar floating
 * conversion and has_l[k] whether it carries l. Stops at a specification
 * the host would not accept (it stops formatting there too). */
typedef struct fmt_convs {
  int n;
  size_t conv[64];
  bool scalar_float[64], has_l[64];
} fmt_convs;

static void parse_format(const char *f, size_t n, fmt_convs *fc) {
  fc->n = 0;
  for (size_t i = 0; i < n && fc->n < 64; i++) {
    if (f[i] != '%') continue;
    if (++i < n && f[i] == '%') continue;
    while (i < n && f[i] && strchr("-+ #0", f[i])) i++;
    while (i < n && ((f[i] >= '0' && f[i] <= '9') || f[i] == '.')) i++;
    bool vec = i < n && f[i] == 'v';
    if (vec)
      for (i++; i < n && f[i] >= '0' && f[i] <= '9'; i++) {
      }
    bool l = false;
    while (i < n && (f[i] == 'h' || f[i] == 'l')) l |= f[i++] == 'l';
    if (i >= n || !f[i] || !strchr("diouxXfFeEgGaAcsp", f[i])) return;
    fc->conv[fc->n] = i;
    fc->scalar_float[fc->n] = !vec && strchr("fFeEgGaA", f[i]);
    fc->has_l[fc->n++] = l;
  }
}

static bool is_double(LLVMValueRef v) { return LLVMGetTypeKind(LLVMTypeOf(v)) == LLVMDoubleTypeKind; }

static LLVMValueRef widened_float(LLVMValueRef v) {
  if (!LLVMIsAInstruction(v) || LLVMGetInstructionOpcode(v) != LLVMFPExt) return NULL;
  LLVMValueRef x = LLVMGetOperand(v, 0);
  return LLVMGetTypeKind(LLVMTypeOf(x)) == LLVMFloatTypeKind ? x : NULL;
}

/* a private constant copy of the format with an l before the conversions
 * marked in add_l */
static LLVMValueRef rewritten(cc_ctx *c, LLVMValueRef old, const char *f, size_t n,
                              const fmt_convs *fc, const bool *add_l) {
  char *t = malloc(n + 65);
  if (!t) return NULL;
  size_t m = 0, at = 0;
  for (int k = 0; k < fc->n; k++) {
    if (!add_l[k]) continue;
    memcpy(t + m, f + at, fc->conv[k] - at);
    m += fc->conv[k] - at;
    t[m++] = 'l';
    at = fc->conv[k];
  }
  memcpy(t + m, f + at, n - at);
  m += n - at;
  LLVMValueRef str = LLVMConstStringInContext(c->llctx, t, (unsigned)m, 1); /* f holds its NUL */
  free(t);
  LLVMTypeRef pt = LLVMTypeOf(old);
  LLVMValueRef g = LLVMAddGlobalInAddressSpace(c->mod, LLVMTypeOf(str), ".str.vt",
                                               LLVMGetPointerAddressSpace(pt));
  LLVMSetInitializer(g, str);
  LLVMSetGlobalConstant(g, 1);
  LLVMSetLinkage(g, LLVMPrivateLinkage);
  LLVMSetUnnamedAddress(g, LLVMGlobalUnnamedAddr);
  return LLVMConstBitCast(g, LLVMTypeOf(old));
}

static void fix_call(cc_ctx *c, LLVMValueRef call) {
  unsigned nargs = (unsigned)LLVMGetNumArgOperands(call);
  LLVMValueRef fmt = LLVMGetOperand(call, 0), global = NULL;
  size_t len = 0;
  const char *f = format_text(fmt, &len, &global);
  fmt_convs fc = {0};
  if (f) parse_format(f, len, &fc);
  bool add_l[64] = {false}, any = false;
  for (unsigned k = 1; k < nargs; k++) {
    LLVMValueRef a = LLVMGetOperand(call, k), x = widened_float(a);
    int conv = (int)k - 1;
    bool known = f && conv < fc.n && fc.scalar_float[conv];
    if (!is_double(a) || (f && !known)) continue; /* not a floating conversion: as it is */
    if (x && (!known || !fc.has_l[conv])) {
      LLVMSetOperand(call, k, x);
    } else if (!known) {
      cc_error(c, call, "printf of a double needs a format that is a string literal");
      return;
    } else if (!fc.has_l[conv]) {
      add_l[conv] = any = true;
    }
  }
  if (any) {
    LLVMValueRef nf = rewritten(c, fmt, f, len, &fc, add_l);
    if (nf) LLVMSetOperand(call, 0, nf);
    else cc_error(c, call, "out of memory");
  }
}

int cc_printf_doubles(cc_ctx *c) {
  LLVMValueRef printf_fn = LLVMGetNamedFunction(c->mod, "printf");
  if (!printf_fn) return 0;
  for (LLVMUseRef u = LLVMGetFirstUse(printf_fn); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef call = LLVMGetUser(u);
    if (LLVMIsACallInst(call) && LLVMGetCalledValue(call) == printf_fn) fix_call(c, call);
  }
  return c->errors ? -1 : 0;
}
