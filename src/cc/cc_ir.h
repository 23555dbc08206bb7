/* The back end's view of one LLVM IR function (cc_ir.c): its blocks as
 * indices with a cc_graph, its instructions numbered, a pointer map, and
 * what the uniformity analysis (cc_uniform.c) concludes. */
#ifndef VT_CC_IR_H
#define VT_CC_IR_H

#include <llvm-c/Core.h>
#include <stdbool.h>
#include <stdint.h>

#include "cc_graph.h"

/* Pointer -> int map (open addressing). */
typedef struct cc_ptrmap {
  const void **keys;
  int *vals;
  size_t cap, count;
} cc_ptrmap;
int cc_ptrmap_put(cc_ptrmap *m, const void *key, int val); /* 0, or -1 out of memory */
int cc_ptrmap_get(const cc_ptrmap *m, const void *key);    /* -1 when absent */
void cc_ptrmap_free(cc_ptrmap *m);

typedef struct cc_irf {
  LLVMValueRef fn;
  int nb;
  LLVMBasicBlockRef *bb;   /* block index -> block (function order) */
  cc_ptrmap bmap;          /* block -> index */
  cc_graph *g;
  int ninst;
  LLVMValueRef *inst;      /* instruction index -> instruction */
  int *inst_block;         /* its block */
  cc_ptrmap imap;          /* instruction -> index */
  uint8_t *varying;        /* per instruction: varies between the lanes of a warp */
  uint8_t *div_branch;     /* per block: its terminator is a divergent branch */
  uint8_t *flat_ptr;       /* per instruction: a private-space pointer that points
                              into flat memory (a byval kernel argument) */
} cc_irf;

/* NULL when out of memory. */
cc_irf *cc_irf_new(LLVMValueRef fn);
void cc_irf_free(cc_irf *f);
int cc_irf_index(const cc_irf *f, LLVMValueRef inst);  /* -1: not an instruction of f */
int cc_irf_block(const cc_irf *f, LLVMBasicBlockRef b);

/* The uniformity analysis. 0, or -1 out of memory. */
int cc_uniformity(cc_irf *f);
/* Is the value (instruction, argument, constant) varying? */
bool cc_is_varying(const cc_irf *f, LLVMValueRef v);
/* Does the private-space pointer v point into flat memory (byval args)? */
bool cc_ptr_is_flat(const cc_irf *f, LLVMValueRef v);

#endif
