/* Emitting assembly text (cc_emit.c: one kernel; cc_data.c: global data). */
#ifndef VT_CC_EMIT_H
#define VT_CC_EMIT_H

#include "cc_internal.h"
#include "cc_mir.h"
#include "cc_regalloc.h"

/* target value of an addi whose immediate is an offset into the printf
 * record area of the stack frame */
#define CC_FRAME_PRINTF (-3)

typedef struct cc_resources {
  unsigned vgprs, sgprs; /* highest register used + 1 */
  unsigned lds, pds;     /* static __local bytes; private bytes per work-item */
  unsigned stack;        /* bytes of the warp's stack */
} cc_resources;

int cc_emit_kernel(cc_ctx *c, const cc_mf *f, const cc_ra_state *st, int index, cc_buf *out,
                   cc_resources *res);
/* The .vt_kernel_arg directives of kernel fn (cc_kargs.c); -1 after an
 * error for an argument the section cannot describe. */
int cc_emit_kernel_args(cc_ctx *c, LLVMValueRef fn, cc_buf *out);
/* The program's global data (constants, string literals) in .rodata/.data. */
int cc_emit_data(cc_ctx *c, cc_buf *out);
/* The assembler name of a global variable. */
void cc_global_symbol(LLVMValueRef g, char *buf, size_t n);

#endif
