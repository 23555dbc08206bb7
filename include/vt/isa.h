/* vt/isa.h - the Ventus instruction table and what is derived from it:
 * decoding, operand extraction/insertion, CSR names and disassembly.
 *
 * Every instruction is described once, in vt/isa_insns.def (operands in
 * vt/isa_operands.def, aliases in vt/isa_aliases.def, CSRs in
 * vt/isa_csrs.def). A build-time generator (src/isa/gen) checks the table
 * and turns it into the constant descriptors exported here.
 */
#ifndef VT_ISA_H
#define VT_ISA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* How an operand is printed and parsed. */
typedef enum vt_operand_kind {
  VT_OPK_XREG,  /* scalar register, ABI name (zero, ra, sp, ...) */
  VT_OPK_XRAW,  /* scalar register printed as xN (endprg, barrier) */
  VT_OPK_VREG,  /* vector register vN */
  VT_OPK_IMM,   /* immediate, decimal */
  VT_OPK_PCREL, /* pc-relative target: printed as an absolute address */
  VT_OPK_CSR,   /* CSR number or name */
  VT_OPK_RM,    /* FP rounding mode: rne rtz rdn rup rmm dyn */
  VT_OPK_VM,    /* vector mask: ", v0.t" when 0 */
  VT_OPK_VTYPE, /* vtype immediate: e32, m1, ta, ma */
  VT_OPK_FENCE  /* fence predecessor/successor set: iorw */
} vt_operand_kind;

enum {
  VT_OPF_SIGNED = 1,      /* value is sign-extended */
  VT_OPF_SHIFT1 = 2,      /* value = field << 1 */
  VT_OPF_OPTIONAL = 4,    /* may be omitted; default_value is used then */
  VT_OPF_UNSIGNED_OK = 8  /* assembler accepts the unsigned reading too */
};

typedef struct vt_bitrange {
  uint8_t hi, lo;
} vt_bitrange;

typedef struct vt_operand_desc {
  const char *name;
  uint8_t kind;    /* vt_operand_kind */
  uint8_t flags;   /* VT_OPF_* */
  uint8_t nfields; /* pieces, most significant first */
  int32_t default_value;
  vt_bitrange fields[4];
} vt_operand_desc;

typedef enum vt_operand_id {
#define OPERAND(id, ...) VT_OP_##id,
#include "vt/isa_operands.def"
#undef OPERAND
  VT_OP_COUNT
} vt_operand_id;

/* Execution class: which functional unit the timing model sends it to. */
typedef enum vt_exec_class {
  VT_EX_ALU, VT_EX_BRANCH, VT_EX_JUMP, VT_EX_LOAD, VT_EX_STORE, VT_EX_AMO,
  VT_EX_CSR, VT_EX_MUL, VT_EX_DIV, VT_EX_FPU, VT_EX_SFU, VT_EX_FENCE,
  VT_EX_SYSTEM, VT_EX_VSET, VT_EX_VALU, VT_EX_VMUL, VT_EX_VDIV, VT_EX_VFPU,
  VT_EX_VSFU, VT_EX_VLOAD, VT_EX_VSTORE, VT_EX_VPERM, VT_EX_VMASK,
  VT_EX_VBRANCH, VT_EX_SIMT, VT_EX_BARRIER, VT_EX_ENDPRG, VT_EX_REGEXT,
  VT_EX_TENSOR,
  VT_EX_COUNT
} vt_exec_class;

typedef enum vt_insn_id {
#define INSN(id, ...) VT_INSN_##id,
#include "vt/isa_insns.def"
#undef INSN
  VT_INSN_COUNT,
  VT_INSN_INVALID = 0xffff
} vt_insn_id;

/* Syntax templates: literal characters, with each operand encoded as one
 * byte VT_TMPL_OP + operand id. */
#define VT_TMPL_OP 0x80
#define VT_MAX_OPERANDS 6

typedef struct vt_insn_desc {
  const char *mnemonic;
  uint32_t match, mask;
  uint8_t exec_class; /* vt_exec_class */
  uint8_t nops;
  uint8_t ops[VT_MAX_OPERANDS]; /* vt_operand_id, in assembly order */
  const char *tmpl;             /* compiled syntax */
} vt_insn_desc;

enum { VT_AL_PRINT = 1, VT_AL_ASM = 2 };

typedef struct vt_alias_constraint {
  uint8_t op;     /* vt_operand_id */
  uint8_t is_ref; /* value is another operand id to copy from */
  int32_t value;
} vt_alias_constraint;

typedef struct vt_alias_desc {
  const char *mnemonic;
  uint16_t insn; /* vt_insn_id */
  uint8_t flags; /* VT_AL_* */
  uint8_t nops;
  uint8_t ops[VT_MAX_OPERANDS];
  uint8_t ncons;
  vt_alias_constraint cons[3];
  const char *tmpl;
} vt_alias_desc;

/* --- the table --- */
const vt_insn_desc *vt_isa_insn(vt_insn_id id);
size_t vt_isa_insn_count(void);
const vt_operand_desc *vt_isa_operand(vt_operand_id id);
const vt_alias_desc *vt_isa_alias(size_t index);
size_t vt_isa_alias_count(void);
const char *vt_exec_class_name(vt_exec_class c);

/* Instructions and aliases whose mnemonic is 'name' (case-sensitive).
 * Fill up to 'max' ids; return how many exist. */
size_t vt_isa_find_insns(const char *name, size_t len, uint16_t *ids, size_t max);
size_t vt_isa_find_aliases(const char *name, size_t len, uint16_t *idx, size_t max);

/* --- decoding and encoding --- */
/* The instruction encoded by 'word', or VT_INSN_INVALID. */
vt_insn_id vt_decode(uint32_t word);

/* Operand value (sign-extended and scaled as the descriptor says). */
int32_t vt_operand_get(vt_operand_id op, uint32_t word);
/* 'word' with the operand's fields replaced by 'value'. */
uint32_t vt_operand_set(vt_operand_id op, uint32_t word, int32_t value);
/* Whether 'value' is encodable (range, alignment). */
bool vt_operand_fits(vt_operand_id op, int64_t value);
/* Smallest and largest encodable values. */
void vt_operand_range(vt_operand_id op, int64_t *min, int64_t *max);
/* Bits of the word the operand occupies. */
uint32_t vt_operand_mask(vt_operand_id op);

/* --- names --- */
const char *vt_xreg_name(unsigned r); /* ABI name, r < 32 */
/* Parse a register name: ABI names, xN, and (if allow_fnames) fN/ABI FP
 * names (Zfinx convenience: f10/fa0 mean x10). Returns -1 if unknown. */
int vt_parse_xreg(const char *s, size_t len, bool allow_fnames);
int vt_parse_vreg(const char *s, size_t len);
const char *vt_csr_name(unsigned num); /* NULL if unnamed */
bool vt_csr_is_ventus(unsigned num);
/* Accepts names, CSR_NAME for the Ventus CSRs; -1 if unknown. */
int vt_parse_csr(const char *s, size_t len);
const char *vt_rm_name(unsigned rm); /* NULL for 5, 6 */
/* vtype immediate text "e32, m1, ta, ma"; returns chars written. */
int vt_format_vtype(uint32_t vtype, char *buf, size_t n);
/* fence set "iorw" text; "0" when empty */
int vt_format_fence(uint32_t set, char *buf, size_t n);

/* --- disassembly (llvm-objdump style) --- */
typedef struct vt_disasm_opts {
  bool numeric_csr; /* Ventus CSRs as numbers, as the official dumps do */
  bool no_aliases;  /* print the base instruction, never an alias */
  /* Optional symbolizer for pc-relative targets: returns the symbol name
   * containing 'addr' and sets *offset, or NULL. */
  const char *(*symbolize)(void *ctx, uint32_t addr, uint32_t *offset);
  void *ctx;
} vt_disasm_opts;

/* Writes "mnemonic\toperands" (llvm-objdump layout, without address and
 * bytes) into buf. Unknown words give "<unknown>". Returns the length the
 * full text has (like snprintf). Never fails on any word. */
int vt_disasm(uint32_t word, uint32_t pc, const vt_disasm_opts *opts, char *buf, size_t n);

/* --- table checking (used at build time and by tests) --- */
typedef struct vt_raw_insn {
  const char *id, *mnemonic;
  uint32_t match, mask;
  int exec_class;
  const char *syntax;
} vt_raw_insn;

/* Compile a syntax string into a template; returns 0 or -1 with a message. */
int vt_isa_compile_syntax(const char *syntax, const vt_operand_desc *ops, size_t nops,
                          char *tmpl, size_t tmpl_size, uint8_t *opids, uint8_t *nopids,
                          char *err, size_t errn);
/* Check a table: no two entries overlap, every bit is fixed or belongs to an
 * operand, operands fit the word and do not clash with fixed bits, syntax
 * names only known operands. Returns the number of problems; messages (one
 * line each, naming the entries) go to err. */
int vt_isa_check_table(const vt_raw_insn *insns, size_t n, const vt_operand_desc *ops,
                       size_t nops, char *err, size_t errn);

#ifdef __cplusplus
}
#endif
#endif
