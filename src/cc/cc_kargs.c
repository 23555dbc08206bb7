/* Kernel argument information for OpenCL: one `.vt_kernel_arg` directive
 * per argument of each kernel (`.vt_kernel` for a kernel without any), from
 * which vt as writes the .vt.kernel_args section (docs/as.md, vt/kargs.h)
 * that the OpenCL platform reads for CL_KERNEL_NUM_ARGS,
 * clGetKernelArgInfo and the clSetKernelArg checks (docs/opencl.md).
 *
 * Kind and size come from the IR parameter as the argument buffer holds it
 * (cc_isel.c load_params): a pointer in SPIR address space 1 (global),
 * 2 (constant) or 3 (local) takes 4 bytes; anything else (scalars,
 * vectors, byval structs) is a value of its ABI size. Names, type names and
 * type qualifiers come from clang's kernel_arg_name, kernel_arg_type and
 * kernel_arg_type_qual metadata (clang runs with -cl-kernel-arg-info). */
#include <stdlib.h>
#include <string.h>

#include "cc_emit.h"
#include "vt/kargs.h"

enum { MD_NAME, MD_TYPE, MD_QUAL, MD_COUNT };

/* Operand k of the function's metadata node 'kind' as a string, or "". */
static const char *md_string(LLVMValueRef *ops, unsigned nops, unsigned k, unsigned *len) {
  *len = 0;
  if (!ops || k >= nops || !ops[k]) return "";
  const char *s = LLVMGetMDString(ops[k], len);
  return s ? s : "";
}

/* The operands of each node of 'names' attached to fn (NULL when absent). */
static void md_nodes(cc_ctx *c, LLVMValueRef fn, LLVMValueRef *ops[MD_COUNT],
                     unsigned nops[MD_COUNT]) {
  static const char *const names[MD_COUNT] = {"kernel_arg_name", "kernel_arg_type",
                                              "kernel_arg_type_qual"};
  size_t n = 0;
  LLVMValueMetadataEntry *all = LLVMGlobalCopyAllMetadata(fn, &n);
  for (int m = 0; m < MD_COUNT; m++) {
    ops[m] = NULL;
    nops[m] = 0;
    unsigned kind = LLVMGetMDKindIDInContext(c->llctx, names[m], (unsigned)strlen(names[m]));
    for (size_t i = 0; i < n; i++) {
      if (LLVMValueMetadataEntriesGetKind(all, (unsigned)i) != kind) continue;
      LLVMValueRef node =
          LLVMMetadataAsValue(c->llctx, LLVMValueMetadataEntriesGetMetadata(all, (unsigned)i));
      nops[m] = LLVMGetMDNodeNumOperands(node);
      ops[m] = nops[m] ? calloc(nops[m], sizeof *ops[m]) : NULL;
      if (ops[m]) LLVMGetMDNodeOperands(node, ops[m]);
      else nops[m] = 0;
    }
  }
  if (all) LLVMDisposeValueMetadataEntries(all);
}

/* A string operand for vt as: quoted, with " and \ escaped. */
static void put_string(cc_buf *out, const char *s, unsigned len) {
  cc_buf_puts(out, "\"");
  for (unsigned i = 0; i < len; i++) {
    if (s[i] == '"' || s[i] == '\\') cc_buf_puts(out, "\\");
    cc_buf_add(out, &s[i], 1);
  }
  cc_buf_puts(out, "\"");
}

/* The qualifier words vt as knows, from clang's "const volatile" etc.
 * (other words, such as "pipe", are left out). */
static void put_quals(cc_buf *out, const char *s, unsigned len) {
  static const char *const words[] = {"const", "restrict", "volatile"};
  bool first = true;
  for (int w = 0; w < 3; w++) {
    size_t n = strlen(words[w]);
    for (unsigned i = 0; i + n <= len; i++)
      if (!memcmp(s + i, words[w], n) && (i == 0 || s[i - 1] == ' ') &&
          (i + n == len || s[i + n] == ' ')) {
        cc_buf_printf(out, "%s%s", first ? ", " : " ", words[w]);
        first = false;
        break;
      }
  }
}

/* The argument kind word and its size in the argument buffer; NULL for an
 * argument OpenCL C cannot have (a private pointer). */
static const char *kind_of(cc_ctx *c, LLVMValueRef fn, unsigned k, uint64_t *size) {
  unsigned byval = LLVMGetEnumAttributeKindForName("byval", 5);
  LLVMTypeRef t = LLVMTypeOf(LLVMGetParam(fn, k));
  bool bv = LLVMGetEnumAttributeAtIndex(fn, k + 1, byval) != NULL;
  if (LLVMGetTypeKind(t) == LLVMPointerTypeKind && !bv) {
    *size = 4;
    switch (LLVMGetPointerAddressSpace(t)) {
    case 1: return "global";
    case 2: return "constant";
    case 3: return "local";
    default: return NULL;
    }
  }
  *size = LLVMABISizeOfType(c->td, bv ? LLVMGetElementType(t) : t);
  return "value";
}

int cc_emit_kernel_args(cc_ctx *c, LLVMValueRef fn, cc_buf *out) {
  size_t kn = 0;
  const char *kernel = LLVMGetValueName2(fn, &kn);
  unsigned n = LLVMCountParams(fn);
  if (n == 0) {
    cc_buf_printf(out, "    .vt_kernel %.*s\n", (int)kn, kernel);
    return 0;
  }
  LLVMValueRef *ops[MD_COUNT];
  unsigned nops[MD_COUNT];
  md_nodes(c, fn, ops, nops);
  int rc = 0;
  for (unsigned k = 0; k < n && rc == 0; k++) {
    uint64_t size;
    const char *kind = kind_of(c, fn, k, &size);
    unsigned len;
    const char *name = md_string(ops[MD_NAME], nops[MD_NAME], k, &len);
    if (!kind || size == 0 || size > VT_KARGS_MAX_VALUE) {
      cc_error(c, NULL, "kernel '%.*s': argument %u ('%s') %s", (int)kn, kernel, k, name,
               kind ? "is larger than 1024 bytes, the largest argument passed by value"
                    : "is a pointer to private memory");
      rc = -1;
      break;
    }
    cc_buf_printf(out, "    .vt_kernel_arg %.*s, %s, %llu, ", (int)kn, kernel, kind,
                  (unsigned long long)size);
    if (!len) {
      size_t pn = 0;
      name = LLVMGetValueName2(LLVMGetParam(fn, k), &pn);
      len = (unsigned)pn;
    }
    put_string(out, name, len);
    const char *type = md_string(ops[MD_TYPE], nops[MD_TYPE], k, &len);
    cc_buf_puts(out, ", ");
    put_string(out, type, len);
    const char *qual = md_string(ops[MD_QUAL], nops[MD_QUAL], k, &len);
    put_quals(out, qual, len);
    cc_buf_puts(out, "\n");
  }
  for (int m = 0; m < MD_COUNT; m++) free(ops[m]);
  return rc;
}
