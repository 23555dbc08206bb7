/* Linking the device libraries into the program as LLVM IR: vt's own
 * OpenCL C library (src/cc/clc/vtclc.cl: work-item functions, barriers,
 * vload/vstore for __constant, software conversions; embedded bitcode)
 * and Debian's libclc (nvptx--.bc: the math functions, atomics). libclc is built for another
 * target with the C calling convention; every call and function is brought
 * to one convention here, before any optimisation, because a mismatch is
 * undefined behaviour that LLVM turns into `unreachable`. */
#include <llvm-c/BitReader.h>
#include <llvm-c/DebugInfo.h>
#include <llvm-c/Linker.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cc_internal.h"

static const char *libclc_path(void) {
  const char *e = getenv("VT_LIBCLC");
  return e ? e : VT_CC_LIBCLC;
}

/* frem has no instruction: it becomes a call of OpenCL's fmod (from
 * libclc), which is exact. */
static void lower_frem(cc_ctx *c) {
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
  for (LLVMValueRef f = LLVMGetFirstFunction(c->mod); f; f = LLVMGetNextFunction(f))
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i;) {
        LLVMValueRef next = LLVMGetNextInstruction(i);
        if (LLVMGetInstructionOpcode(i) == LLVMFRem) {
          LLVMTypeRef t = LLVMTypeOf(i);
          bool vec = LLVMGetTypeKind(t) == LLVMVectorTypeKind;
          char e = LLVMGetTypeKind(vec ? LLVMGetElementType(t) : t) == LLVMDoubleTypeKind ? 'd' : 'f';
          char name[64];
          if (vec)
            snprintf(name, sizeof name, "_Z4fmodDv%u_%cS_", LLVMGetVectorSize(t), e);
          else
            snprintf(name, sizeof name, "_Z4fmod%c%c", e, e);
          LLVMTypeRef params[2] = {t, t};
          LLVMTypeRef ft = LLVMFunctionType(t, params, 2, 0);
          LLVMValueRef fn = LLVMGetNamedFunction(c->mod, name);
          if (!fn) fn = LLVMAddFunction(c->mod, name, ft);
          LLVMPositionBuilderBefore(b, i);
          LLVMValueRef args[2] = {LLVMGetOperand(i, 0), LLVMGetOperand(i, 1)};
          LLVMValueRef call = LLVMBuildCall2(b, ft, fn, args, 2, "");
          LLVMInstructionSetDebugLoc(call, LLVMInstructionGetDebugLoc(i));
          LLVMReplaceAllUsesWith(i, call);
          LLVMInstructionEraseFromParent(i);
        }
        i = next;
      }
  LLVMDisposeBuilder(b);
}

/* --- conversions without an instruction: binary64 -> binary32 and
 * binary16, int64 -> binary32 (and -> binary16 through binary32, which is
 * exact unless binary16 overflows anyway) become calls of the software
 * routines of src/cc/clc/vtclc.cl, element by element for vectors --- */

static LLVMValueRef call_helper(cc_ctx *c, LLVMBuilderRef b, const char *name, LLVMValueRef arg) {
  LLVMValueRef fn = LLVMGetNamedFunction(c->mod, name);
  if (!fn) return NULL;
  LLVMValueRef call = LLVMBuildCall2(b, LLVMGlobalGetValueType(fn), fn, &arg, 1, "");
  LLVMSetInstructionCallConv(call, LLVMGetFunctionCallConv(fn));
  return call;
}

/* the converted scalar x (op: fptrunc from double, or sitofp/uitofp from
 * i64) of type `to` */
static LLVMValueRef soft_convert(cc_ctx *c, LLVMBuilderRef b, LLVMOpcode op, LLVMValueRef x,
                                 LLVMTypeRef to) {
  bool half = LLVMGetTypeKind(to) == LLVMHalfTypeKind;
  LLVMValueRef r;
  if (op == LLVMFPTrunc) {
    LLVMValueRef bits = LLVMBuildBitCast(b, x, LLVMInt64TypeInContext(c->llctx), "");
    r = call_helper(c, b, half ? "__vt_f64_to_f16" : "__vt_f64_to_f32", bits);
    return r ? LLVMBuildBitCast(b, r, to, "") : NULL;
  }
  r = call_helper(c, b, op == LLVMSIToFP ? "__vt_s64_to_f32" : "__vt_u64_to_f32", x);
  if (!r) return NULL;
  r = LLVMBuildBitCast(b, r, LLVMFloatTypeInContext(c->llctx), "");
  return half ? LLVMBuildFPTrunc(b, r, to, "") : r;
}

static bool needs_software(LLVMValueRef i) {
  LLVMOpcode op = LLVMGetInstructionOpcode(i);
  if (op != LLVMFPTrunc && op != LLVMSIToFP && op != LLVMUIToFP) return false;
  LLVMTypeRef from = LLVMTypeOf(LLVMGetOperand(i, 0)), to = LLVMTypeOf(i);
  if (LLVMGetTypeKind(from) == LLVMVectorTypeKind) {
    from = LLVMGetElementType(from);
    to = LLVMGetElementType(to);
  }
  if (op == LLVMFPTrunc) return LLVMGetTypeKind(from) == LLVMDoubleTypeKind;
  LLVMTypeKind tk = LLVMGetTypeKind(to);
  return LLVMGetIntTypeWidth(from) == 64 && (tk == LLVMFloatTypeKind || tk == LLVMHalfTypeKind);
}

static int lower_conversions(cc_ctx *c) {
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
  LLVMTypeRef i32 = LLVMInt32TypeInContext(c->llctx);
  int rc = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(c->mod); f; f = LLVMGetNextFunction(f))
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i;) {
        LLVMValueRef next = LLVMGetNextInstruction(i);
        if (!needs_software(i)) {
          i = next;
          continue;
        }
        LLVMOpcode op = LLVMGetInstructionOpcode(i);
        LLVMValueRef x = LLVMGetOperand(i, 0), r;
        LLVMTypeRef t = LLVMTypeOf(i);
        LLVMPositionBuilderBefore(b, i);
        LLVMSetCurrentDebugLocation2(b, LLVMInstructionGetDebugLoc(i)); /* inlining needs it */
        if (LLVMGetTypeKind(t) == LLVMVectorTypeKind) {
          r = LLVMGetUndef(t);
          for (unsigned k = 0; r && k < LLVMGetVectorSize(t); k++) {
            LLVMValueRef idx = LLVMConstInt(i32, k, 0);
            LLVMValueRef e = soft_convert(c, b, op, LLVMBuildExtractElement(b, x, idx, ""),
                                          LLVMGetElementType(t));
            r = e ? LLVMBuildInsertElement(b, r, e, idx, "") : NULL;
          }
        } else {
          r = soft_convert(c, b, op, x, t);
        }
        if (!r) {
          cc_buf_puts(&c->log, "vt cc: internal error: the device library has no software conversion\n");
          c->errors++;
          rc = -1;
          break;
        }
        LLVMReplaceAllUsesWith(i, r);
        LLVMInstructionEraseFromParent(i);
        i = next;
      }
  LLVMDisposeBuilder(b);
  return rc;
}

/* --- NaN in saturating conversions: OpenCL C 1.2 6.2.3.3 makes
 * convert_<integer>_sat*(NaN) 0; libclc clamps and converts, which gives
 * what the conversion instruction gives (RISC-V: the largest integer). So
 * each call of one with a floating argument gets a select of 0 for the
 * lanes whose argument is NaN. --- */

/* _Z<n>convert_<type>_sat... with a float, double or half (vector) argument */
static bool is_sat_from_fp(LLVMValueRef fn) {
  size_t len;
  const char *name = LLVMGetValueName2(fn, &len);
  if (len < 4 || strncmp(name, "_Z", 2) != 0) return false;
  char *end;
  unsigned long n = strtoul(name + 2, &end, 10);
  if (n < 12 || n > (size_t)(name + len - end) || strncmp(end, "convert_", 8) != 0) return false;
  char plain[64];
  snprintf(plain, sizeof plain, "%.*s", (int)n, end);
  if (!strstr(plain, "_sat") || LLVMCountParams(fn) != 1) return false;
  LLVMTypeRef t = LLVMTypeOf(LLVMGetParam(fn, 0));
  if (LLVMGetTypeKind(t) == LLVMVectorTypeKind) t = LLVMGetElementType(t);
  LLVMTypeKind k = LLVMGetTypeKind(t);
  return k == LLVMFloatTypeKind || k == LLVMDoubleTypeKind || k == LLVMHalfTypeKind;
}

static void saturate_nan_to_zero(cc_ctx *c) {
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
  for (LLVMValueRef fn = LLVMGetFirstFunction(c->mod); fn; fn = LLVMGetNextFunction(fn)) {
    if (!is_sat_from_fp(fn)) continue;
    for (LLVMUseRef u = LLVMGetFirstUse(fn); u;) {
      LLVMValueRef call = LLVMGetUser(u);
      u = LLVMGetNextUse(u); /* the replacement below adds uses of the call, not of fn */
      if (!LLVMIsACallInst(call) || LLVMGetCalledValue(call) != fn) continue;
      LLVMPositionBuilderBefore(b, LLVMGetNextInstruction(call));
      LLVMSetCurrentDebugLocation2(b, LLVMInstructionGetDebugLoc(call));
      LLVMValueRef x = LLVMGetOperand(call, 0);
      LLVMValueRef nan = LLVMBuildFCmp(b, LLVMRealUNO, x, x, "");
      LLVMValueRef sel = LLVMBuildSelect(b, nan, LLVMConstNull(LLVMTypeOf(call)), call, "");
      LLVMReplaceAllUsesWith(call, sel);
      LLVMSetOperand(sel, 2, call); /* the select itself keeps the call */
    }
  }
  LLVMDisposeBuilder(b);
}

static int link_one(cc_ctx *c, LLVMModuleRef lib, const char *what) {
  LLVMSetTarget(lib, LLVMGetTarget(c->mod));
  LLVMSetDataLayout(lib, LLVMGetDataLayoutStr(c->mod));
  if (LLVMLinkModules2(c->mod, lib)) {
    cc_buf_printf(&c->log, "vt cc: error: linking %s failed\n", what);
    c->errors++;
    return -1;
  }
  return 0;
}

static int link_vtclc(cc_ctx *c) {
  LLVMMemoryBufferRef mb = LLVMCreateMemoryBufferWithMemoryRange(
      (const char *)vt_cc_vtclc_bc, vt_cc_vtclc_bc_size, "vtclc.bc", 0);
  LLVMModuleRef lib;
  LLVMBool bad = LLVMParseBitcodeInContext2(c->llctx, mb, &lib);
  LLVMDisposeMemoryBuffer(mb);
  if (bad) {
    cc_buf_printf(&c->log, "vt cc: error: the built-in device library does not load\n");
    c->errors++;
    return -1;
  }
  /* built without LLVM passes, so that every intrinsic call keeps its
   * literal arguments; only its locals become SSA values */
  LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
  LLVMErrorRef e = LLVMRunPasses(lib, "function(mem2reg)", NULL, po);
  LLVMDisposePassBuilderOptions(po);
  if (e) LLVMConsumeError(e);
  return link_one(c, lib, "the device library");
}

/* Is anything still declared that libclc could define? */
static bool needs_libclc(cc_ctx *c) {
  for (LLVMValueRef f = LLVMGetFirstFunction(c->mod); f; f = LLVMGetNextFunction(f)) {
    size_t n;
    const char *name = LLVMGetValueName2(f, &n);
    if (LLVMIsDeclaration(f) && n > 2 && !strncmp(name, "_Z", 2) && LLVMGetFirstUse(f))
      return true;
  }
  return false;
}

static int link_libclc(cc_ctx *c) {
  const char *path = libclc_path();
  if (!path || !*path) return 0; /* missing: undefined functions are reported later */
  LLVMMemoryBufferRef mb;
  char *msg = NULL;
  if (LLVMCreateMemoryBufferWithContentsOfFile(path, &mb, &msg)) {
    cc_buf_printf(&c->log, "vt cc: warning: cannot read libclc (%s): %s\n", path, msg ? msg : "?");
    LLVMDisposeMessage(msg);
    return 0;
  }
  LLVMModuleRef lib;
  /* lazy: only the functions the program uses are read (the buffer is the module's now) */
  if (LLVMGetBitcodeModuleInContext2(c->llctx, mb, &lib)) {
    cc_buf_printf(&c->log, "vt cc: error: libclc (%s) does not load\n", path);
    c->errors++;
    return -1;
  }
  return link_one(c, lib, path);
}

/* One calling convention everywhere: C for functions, SPIR's for kernels. */
static void fix_calling_conventions(cc_ctx *c) {
  for (LLVMValueRef f = LLVMGetFirstFunction(c->mod); f; f = LLVMGetNextFunction(f)) {
    if (LLVMGetFunctionCallConv(f) != LLVMSPIRKERNELCallConv)
      LLVMSetFunctionCallConv(f, LLVMCCallConv);
  }
  for (LLVMValueRef f = LLVMGetFirstFunction(c->mod); f; f = LLVMGetNextFunction(f))
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
        if (LLVMGetInstructionOpcode(i) != LLVMCall) continue;
        LLVMValueRef callee = LLVMGetCalledValue(i);
        if (callee && LLVMIsAFunction(callee))
          LLVMSetInstructionCallConv(i, LLVMGetFunctionCallConv(callee));
      }
}

int cc_link_libraries(cc_ctx *c) {
  lower_frem(c);
  if (link_vtclc(c) != 0) return -1;
  if (needs_libclc(c) && link_libclc(c) != 0) return -1;
  if (lower_conversions(c) != 0) return -1;
  saturate_nan_to_zero(c);
  fix_calling_conventions(c);
  return 0;
}
