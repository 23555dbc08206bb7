/* The LLVM passes (new pass manager, through LLVMRunPasses): every function
 * but the kernels is inlined (the back end compiles each kernel as one
 * function), then the pipeline of the -O level runs, then the lowering the
 * back end relies on: no switch, loops in LCSSA form (values leaving a
 * loop go through phis in its exit blocks, where the uniformity analysis
 * sees loop-exit divergence), reducible control flow. Afterwards the module
 * is checked for what the back end cannot compile: recursion, calls through
 * pointers, undefined functions (images and other unsupported built-ins). */
#include <llvm-c/Analysis.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cc_internal.h"

bool cc_is_kernel(LLVMValueRef f) {
  return LLVMGetFunctionCallConv(f) == LLVMSPIRKERNELCallConv && !LLVMIsDeclaration(f);
}

static unsigned attr_kind(const char *name) {
  return LLVMGetEnumAttributeKindForName(name, strlen(name));
}

static void prepare_inlining(cc_ctx *c) {
  unsigned always = attr_kind("alwaysinline"), never = attr_kind("noinline"),
           optnone = attr_kind("optnone");
  for (LLVMValueRef f = LLVMGetFirstFunction(c->mod); f; f = LLVMGetNextFunction(f)) {
    if (LLVMIsDeclaration(f)) continue;
    LLVMRemoveEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, never);
    LLVMRemoveEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, optnone);
    LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(c->llctx, always, 0));
    if (!cc_is_kernel(f)) {
      LLVMSetLinkage(f, LLVMInternalLinkage);
      LLVMSetVisibility(f, LLVMDefaultVisibility);
    }
  }
  /* globals other than kernels are private to the program */
  for (LLVMValueRef g = LLVMGetFirstGlobal(c->mod); g; g = LLVMGetNextGlobal(g))
    if (!LLVMIsDeclaration(g)) LLVMSetLinkage(g, LLVMInternalLinkage);
}

static int run(cc_ctx *c, const char *pipeline) {
  LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
  LLVMPassBuilderOptionsSetLoopVectorization(po, 0);
  LLVMPassBuilderOptionsSetSLPVectorization(po, 0);
  LLVMPassBuilderOptionsSetLoopInterleaving(po, 0);
  LLVMErrorRef e = LLVMRunPasses(c->mod, pipeline, NULL, po);
  LLVMDisposePassBuilderOptions(po);
  if (e) {
    char *m = LLVMGetErrorMessage(e);
    cc_buf_printf(&c->log, "vt cc: error: LLVM passes (%s): %s\n", pipeline, m);
    LLVMDisposeErrorMessage(m);
    c->errors++;
    return -1;
  }
  return 0;
}

/* "_Z4sqrtf" -> "sqrt" (the OpenCL C name of a mangled built-in) */
void cc_demangle(const char *name, char *out, size_t size) {
  if (strncmp(name, "_Z", 2) == 0) {
    char *end;
    unsigned long n = strtoul(name + 2, &end, 10);
    if (n && n < size && strlen(end) >= n) {
      memcpy(out, end, n);
      out[n] = 0;
      return;
    }
  }
  snprintf(out, size, "%s", name);
}

static bool known_external(const char *name) {
  return !strncmp(name, "llvm.", 5) || !strncmp(name, "__vt_", 5) || !strcmp(name, "printf");
}

static bool has_i64_arg(LLVMValueRef call) {
  for (unsigned k = 0; k < (unsigned)LLVMGetNumArgOperands(call); k++) {
    LLVMTypeRef t = LLVMTypeOf(LLVMGetOperand(call, k));
    if (LLVMGetTypeKind(t) == LLVMIntegerTypeKind && LLVMGetIntTypeWidth(t) == 64) return true;
  }
  return false;
}

static void check_call(cc_ctx *c, LLVMValueRef f, LLVMValueRef call) {
  LLVMValueRef callee = LLVMGetCalledValue(call);
  if (!callee || !LLVMIsAFunction(callee)) {
    cc_error(c, call, "calls through function pointers are not supported");
    return;
  }
  size_t n;
  const char *name = LLVMGetValueName2(callee, &n);
  if (LLVMIsDeclaration(callee)) {
    if (known_external(name)) return;
    char plain[256];
    cc_demangle(name, plain, sizeof plain);
    if (strstr(plain, "image") || strstr(plain, "sampler"))
      cc_error(c, call, "images and samplers are not supported ('%s')", plain);
    else if (!strncmp(plain, "atom", 4) && has_i64_arg(call))
      cc_error(c, call, "64-bit atomics are not supported ('%s')", plain);
    else
      cc_error(c, call, "call to undefined function '%s'", plain);
    return;
  }
  char plain[256];
  cc_demangle(name, plain, sizeof plain);
  if (callee == f || !cc_is_kernel(callee))
    cc_error(c, call, "recursion is not supported (call to '%s' could not be inlined)", plain);
  else
    cc_error(c, call, "call to kernel '%s' could not be inlined", plain);
}

static void check_module(cc_ctx *c) {
  for (LLVMValueRef f = LLVMGetFirstFunction(c->mod); f; f = LLVMGetNextFunction(f)) {
    if (!cc_is_kernel(f)) continue;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
        LLVMOpcode op = LLVMGetInstructionOpcode(i);
        if (op == LLVMCall) check_call(c, f, i);
        else if (op == LLVMInvoke || op == LLVMIndirectBr || op == LLVMCallBr)
          cc_error(c, i, "this control flow is not supported");
      }
  }
}

int cc_optimize(cc_ctx *c) {
  prepare_inlining(c);
  static const char *const pipelines[4] = {
      "always-inline,globaldce,function(lower-expect,lower-constant-intrinsics)",
      "default<O1>", "default<O2>", "default<O3>"};
  int lvl = c->opts.opt_level < 0 ? 0 : c->opts.opt_level > 3 ? 3 : c->opts.opt_level;
  if (run(c, pipelines[lvl]) != 0) return -1;
  /* what the back end expects */
  if (run(c, "globaldce,function(lowerswitch,fix-irreducible,loop-simplify,lcssa)") != 0) return -1;
  char *msg = NULL;
  if (LLVMVerifyModule(c->mod, LLVMReturnStatusAction, &msg)) {
    cc_buf_printf(&c->log, "vt cc: internal error: invalid IR after optimisation: %s\n", msg);
    c->errors++;
  }
  LLVMDisposeMessage(msg);
  check_module(c);
  cc_printf_doubles(c);
  return c->errors ? -1 : 0;
}
