/* Instruction selection: LLVM IR of one kernel -> machine IR (cc_mir.h).
 *
 * Every IR value becomes a list of parts (cc_val), one 32-bit register or
 * constant per part: i1..i32, half (in bits 15:0), float and pointers are
 * one part, i64 and double two (low word first), vectors and small
 * aggregates the parts of their elements. A part is uniform (S class, scalar register) or varying (V
 * class, vector register); constants stay immediates until an instruction
 * needs them in a register. Operations pick the scalar, .vv, .vx or .vi
 * form from the classes of their operands (cc_isel_ops.c), so the
 * uniformity analysis only decides the phis; everything else follows from
 * the operands. */
#ifndef VT_CC_ISEL_H
#define VT_CC_ISEL_H

#include "cc_internal.h"
#include "cc_ir.h"
#include "cc_mir.h"

enum { OPK_NONE = 0, OPK_REG = 1, OPK_IMM = 2 };

typedef struct cc_opnd {
  uint8_t kind;
  int8_t rc;   /* class of a register */
  int32_t r;   /* register */
  int32_t k;   /* immediate */
} cc_opnd;

typedef struct cc_val {
  int n;
  cc_opnd *p;
} cc_val;

/* A memory layout piece of a type: part index -> byte offset and size. */
typedef struct cc_piece {
  uint32_t off;
  uint8_t size; /* 1, 2 or 4 */
} cc_piece;

/* A memory address: base (register or immediate) + constant offset, in
 * flat memory (global, constant, local, the argument buffer) or in the
 * lane's private memory (an offset into it). */
typedef struct cc_addr {
  cc_opnd base;
  int32_t off;
  bool priv;
} cc_addr;

typedef struct isel {
  cc_ctx *c;
  cc_irf *ir;
  cc_mf *mf;
  LLVMValueRef fn;
  int cur;               /* current machine block */
  int next_key;          /* layout key of the next block made for this IR block */
  uint32_t line;         /* source line of the instruction being selected */
  LLVMValueRef at;       /* the instruction being selected (messages) */
  cc_ptrmap vmap;        /* IR value -> index in vals */
  cc_val **vals;         /* each allocated on its own: pointers stay valid */
  int nvals, capvals;
  int *entry_of;         /* IR block -> its first machine block */
  int *exit_of;          /* IR block -> the machine block its terminator ends */
  uint8_t *fused;        /* per IR instruction: selected as part of its user */
  int argbase;           /* register holding a0 (the argument buffer) */
  /* per machine block cache of materialised addresses (la, s0 + offset) */
  cc_ptrmap cache;
  int cache_block;
  /* private memory and static __local layout */
  cc_ptrmap allocas;     /* alloca -> private offset */
  cc_ptrmap locals;      /* __local global -> offset from s0 */
  uint32_t private_top, local_top;
  uint32_t stack_top;    /* warp-stack bytes for printf blocks */
  bool uses_printf;
  /* values whose registers are only good in the current block (addresses
   * of globals in constant expressions), a ring of slots */
#define CC_TMPVALS 64
  cc_val tmpvals[CC_TMPVALS];
  unsigned ntmp;
} isel;

/* --- cc_isel_ops.c: emitting and operands --- */
cc_opnd op_imm(int32_t k);
cc_opnd op_reg(int r, int rc);
static inline bool op_is_imm(cc_opnd o) { return o.kind == OPK_IMM; }
static inline bool op_is_v(cc_opnd o) { return o.kind == OPK_REG && o.rc == CC_RC_V; }
cc_mi *emit(isel *s, cc_op op, int d, int s0, int s1, int s2, int32_t imm);
int new_reg(isel *s, int rc);
int to_sreg(isel *s, cc_opnd a);             /* in an S register (an error for V) */
int to_vreg(isel *s, cc_opnd a);             /* in a V register */
int to_class(isel *s, cc_opnd a, int rc);    /* S or V register */
void copy_to(isel *s, int d, cc_opnd a);     /* d = a (class of d) */
cc_opnd as_class(isel *s, cc_opnd a, int rc); /* widen a uniform operand to V */

typedef enum alu_kind {
  A_ADD, A_SUB, A_MUL, A_MULH, A_MULHU, A_DIV, A_DIVU, A_REM, A_REMU, A_AND, A_OR, A_XOR,
  A_SLL, A_SRL, A_SRA, A_SLT, A_SLTU, A_SEQ, A_SNE, A_SLE, A_SLEU, A_MIN, A_MAX, A_MINU,
  A_MAXU, A_FADD, A_FSUB, A_FMUL, A_FDIV, A_FMIN, A_FMAX, A_FSGNJ, A_FSGNJN, A_FSGNJX,
  A_FEQ, A_FLT, A_FLE, A_FNE, A_COUNT
} alu_kind;
/* a OP b; the result is V when an operand is V. Integer ops on two
 * immediates fold. */
cc_opnd alu(isel *s, alu_kind k, cc_opnd a, cc_opnd b);
cc_opnd select_op(isel *s, cc_opnd c, cc_opnd a, cc_opnd b); /* c ? a : b, c is 0/1 */
cc_opnd unary(isel *s, cc_op sop, cc_op vop, cc_opnd a);    /* fsqrt.s / vfsqrt.v, ... */
cc_opnd fma_op(isel *s, cc_opnd a, cc_opnd b, cc_opnd c);   /* a * b + c, fused */
cc_opnd fcvt_op(isel *s, cc_op sop, int rm, cc_op vop, cc_opnd a);
cc_opnd round_op(isel *s, int rm, cc_opnd x);               /* floor/ceil/trunc/rint/round */
cc_opnd cvt_f16(isel *s, cc_op vop, cc_opnd a);             /* CC_VFCVT_F_H or CC_VFCVT_H_F */
cc_opnd sext_op(isel *s, cc_opnd a, int bits);
cc_opnd zext_op(isel *s, cc_opnd a, int bits);

/* --- cc_isel_wide.c: 64-bit operations on register pairs (parts lo, hi);
 * nout = 1 keeps only the low word (a comparison's 0/1) --- */
void wide_vv(isel *s, cc_op op, const cc_opnd *a, const cc_opnd *b, cc_opnd *out, int nout);
void wide_v(isel *s, cc_op op, const cc_opnd *a, cc_opnd *out, int nout);
void wide_fma(isel *s, const cc_opnd *a, const cc_opnd *b, const cc_opnd *c, cc_opnd *out);
void wide_from32(isel *s, cc_op op, cc_opnd a, cc_opnd *out);
void wide_divide(isel *s, cc_op pop, cc_op vop, const cc_opnd *a, const cc_opnd *b, cc_opnd *out);
void wide_fabs(isel *s, const cc_opnd *a, cc_opnd *out);
void wide_copysign(isel *s, const cc_opnd *a, const cc_opnd *b, cc_opnd *out);
void wide_round(isel *s, int rm, const cc_opnd *x, cc_opnd *out);
cc_opnd lt64(isel *s, bool sgn, const cc_opnd *a, const cc_opnd *b);
/* cc_isel_inst.c: a (parts lo, hi) shifted by a variable amount (mod 64);
 * op LLVMShl, LLVMLShr or LLVMAShr */
bool shift64(isel *s, LLVMOpcode op, const cc_opnd *a, cc_opnd amount, cc_opnd *out);

/* --- cc_isel_val.c: values --- */
int parts_of_type(LLVMTypeRef t);
/* Memory layout of a type's parts (n = parts_of_type); 0 or -1 unsupported. */
int pieces_of_type(isel *s, LLVMTypeRef t, cc_piece *pieces, int n);
cc_val *val_new(isel *s, LLVMValueRef v, int n);
cc_val *get_val(isel *s, LLVMValueRef v);   /* NULL after an error */
cc_opnd get_op(isel *s, LLVMValueRef v);    /* single-part value */
bool is_fp_type(LLVMTypeRef t);
int int_bits(LLVMTypeRef t);                 /* 0 for non-integers */
void isel_error(isel *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int global_address(isel *s, LLVMValueRef g); /* register with the address */

/* --- cc_isel_inst.c / cc_isel_mem.c / cc_isel_call.c --- */
void select_inst(isel *s, LLVMValueRef i);
void select_load(isel *s, LLVMValueRef i);
void select_store(isel *s, LLVMValueRef i);
void select_gep(isel *s, LLVMValueRef i);
void select_memcpy(isel *s, LLVMValueRef call, bool is_set);
bool addr_of(isel *s, LLVMValueRef p, cc_addr *a);
void load_pieces(isel *s, const cc_addr *a, const cc_piece *pc, int n, bool varying, cc_opnd *out);
void store_pieces(isel *s, const cc_addr *a, const cc_piece *pc, int n, const cc_opnd *data);
void select_call(isel *s, LLVMValueRef i);
void select_atomic(isel *s, LLVMValueRef i);
void select_printf(isel *s, LLVMValueRef i);
/* Starts machine block b as the current one. */
void set_block(isel *s, int b);

/* The whole kernel: NULL after errors (reported). */
cc_mf *cc_select(cc_ctx *c, LLVMValueRef fn);

#endif
