/* The machine IR of vt cc's back end: blocks of machine instructions on
 * virtual registers of two classes, S (scalar x registers: one value per
 * warp, for uniform values) and V (vector registers: one value per lane).
 * Virtual register numbers below CC_VR_FIRST are the physical registers
 * (x0..x255 = 0..255, v0..v255 = 256..511), usable as precoloured
 * operands. Instruction selection (cc_isel*.c) builds it; cc_simt.c,
 * cc_regalloc.c and cc_emit.c transform and print it. */
#ifndef VT_CC_MIR_H
#define VT_CC_MIR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum cc_op {
#define OP(id, mn, fmt) CC_##id,
#include "cc_ops.def"
#undef OP
  CC_NOPS
} cc_op;

/* Operand formats: the roles of d/s[0..2]/imm/target/sym and the text. */
typedef enum cc_fmt {
  F_RRR, F_RRI, F_RI, F_LA, F_RR, F_LD, F_ST, F_CSRR, F_IMM, F_AMO, F_LR, F_RRRR, F_RR_RM,
  F_VV, F_VX, F_VI, F_VF, F_MVV, F_MVX, F_MVF, F_V, F_VS, F_VIMM, F_V1, F_XV, F_VD, F_VLD,
  F_VST, F_BR, F_VBR, F_J, F_BARRIER, F_NONE, F_CALL, F_COPY,
  /* v2025 register pairs (isa2025.md 3.1, 3.2): d and the sources marked in
   * cc_fmt_info.pairs name the low register of an even-aligned pair */
  F_WVV, F_WV, F_WMVV, F_WW, F_PRRR
} cc_fmt;

enum { CC_RC_S = 0, CC_RC_V = 1, CC_RC_NONE = -1 };
enum { CC_VR_X0 = 0, CC_VR_V0 = 256, CC_VR_FIRST = 512 };
#define CC_X(n) (CC_VR_X0 + (n))
#define CC_V(n) (CC_VR_V0 + (n))

typedef struct cc_op_info {
  const char *mn;
  uint8_t fmt;
} cc_op_info;
extern const cc_op_info cc_ops[CC_NOPS];

/* Register classes of a format: def (CC_RC_* or NONE), source classes. */
typedef struct cc_fmt_info {
  int8_t def, nsrc, src[3];
  bool tied;     /* s[0] is the old value of d (multiply-accumulate) */
  uint8_t pairs; /* bit 0: d is a pair; bit k+1: s[k] is a pair (registers r, r+1) */
  bool sew64;    /* runs with vtype SEW = 64 (the emitter switches vtype around it) */
} cc_fmt_info;
const cc_fmt_info *cc_fmt_of(cc_op op);

typedef struct cc_mi {
  uint16_t op;
  int32_t d;      /* defined register, -1 = none */
  int32_t s[3];   /* sources, -1 = none */
  int32_t imm;
  int32_t target; /* branch/jump: taken block */
  int32_t target2;/* conditional branch: the other block */
  const char *sym;
  uint32_t line;  /* source line, 0 = unknown */
} cc_mi;

typedef struct cc_mb {
  cc_mi *mi;
  int n, cap;
  int succ[2], nsucc; /* from the terminator */
  int *pred, npred;
  int rpc;            /* vector branch: block where the lanes re-converge (its join) */
  bool join;          /* starts with `join` */
  int loop_depth;
  int key;            /* layout order: blocks are emitted by increasing key */
} cc_mb;

typedef struct cc_mf {
  const char *name;
  cc_mb *b;
  int nb, capb;
  int8_t *rc;      /* register class of each virtual register */
  int nvr, capvr;
  int exit_block;  /* the epilogue block */
  /* frame: bytes on the warp's stack (sp, 4-byte slots) and of private
   * memory per lane (allocas first, then vector spill slots) */
  uint32_t stack_bytes, private_bytes, local_bytes;
  uint32_t printf_block; /* stack bytes for printf records */
  bool calls;      /* calls vt_vprintf */
  bool oom;
  char **strings;  /* owned strings (symbols) */
  int nstrings, capstrings;
} cc_mf;

cc_mf *cc_mf_new(const char *name);
void cc_mf_free(cc_mf *f);
int cc_mf_block(cc_mf *f);                       /* new empty block */
int cc_mf_vreg(cc_mf *f, int rc);                /* new virtual register */
const char *cc_mf_str(cc_mf *f, const char *s);  /* an owned copy */
cc_mi *cc_mb_push(cc_mf *f, int b, const cc_mi *mi);
/* Inserts before position 'at' of block b. */
cc_mi *cc_mb_insert(cc_mf *f, int b, int at, const cc_mi *mi);
bool cc_is_term(const cc_mi *mi);
/* Prints the function's blocks and instructions (debugging: VT_CC_DUMP_MIR). */
#include <stdio.h>
void cc_mf_dump(FILE *out, const cc_mf *f);
/* Recomputes succ/pred from the terminators. */
void cc_mf_edges(cc_mf *f);
static inline int cc_vr_class(const cc_mf *f, int r) {
  return r < CC_VR_FIRST ? (r >= CC_VR_V0 ? CC_RC_V : CC_RC_S) : f->rc[r];
}

#endif
