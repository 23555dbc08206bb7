/* Linking the device libraries into the program as LLVM IR: vt's own
 * OpenCL C library (src/cc/clc/vtclc.cl: work-item functions, barriers,
 * vload/vstore for __constant; embedded bitcode) and Debian's libclc
 * (nvptx--.bc: the math functions, atomics). libclc is built for another
 * target with the C calling convention; every call and function is brought
 * to one convention here, before any optimisation, because a mismatch is
 * undefined behaviour that LLVM turns into `unreachable`. */
#include <llvm-c/BitReader.h>
#include <llvm-c/DebugInfo.h>
#include <llvm-c/Linker.h>
#include <llvm-c/Transforms/PassBuilder.h>
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
          char name[64];
          if (LLVMGetTypeKind(t) == LLVMVectorTypeKind)
            snprintf(name, sizeof name, "_Z4fmodDv%u_fS_", LLVMGetVectorSize(t));
          else
            snprintf(name, sizeof name, "_Z4fmodff");
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
  fix_calling_conventions(c);
  return 0;
}
