/* vt/isa.h - the Ventus instruction table and what is derived from it:
 * decoding, operand extraction/insertion, CSR names and disassembly.
 *
 * Every instruction is described once, in vt/isa_insns.def (the v2.02 set)
 * or vt/isa_insns_v2025.def (the v2025 additions, 32- and 64-bit rows);
 * operands in vt/isa_operands.def, aliases in vt/isa_aliases.def, CSRs in
 * vt/isa_csrs.def and vt/isa_csrs_v2025.def. A build-time generator
 * (src/isa/gen) checks the table and turns it into the constant descriptors
 * exported here.
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
  VT_OPK_FENCE, /* fence predecessor/successor set: iorw */
  VT_OPK_MSPACE, /* PREFIX_MEMORY space: default global private local */
  VT_OPK_MWIDTH  /* PREFIX_MEMORY width: 32 64 96 128 (field 0..3) */
} vt_operand_kind;

enum {
  VT_OPF_SIGNED = 1,      /* value is sign-extended */
  VT_OPF_SHIFT1 = 2,      /* value = field << 1 */
  VT_OPF_OPTIONAL = 4,    /* may be omitted; default_value is used then */
  VT_OPF_UNSIGNED_OK = 8, /* assembler accepts the unsigned reading too */
  VT_OPF_KEY = 16,        /* written key=value (the key is the "key=" text
                           * before it in the syntax); omitted when it equals
                           * its default; keyed operands may be written in any
                           * order (isa2025.md 3.5, 3.8.2) */
  /* a vector register group of 2, 4 or 8 registers starting at the operand
   * (MMA fragments, isa2025.md 3.6.4): the first register must be even and
   * the last at most v255; vt_operand_group gives the size */
  VT_OPF_G2 = 1 << 5,
  VT_OPF_G4 = 2 << 5,
  VT_OPF_G8 = 3 << 5
};
#define VT_OPF_GROUP_MASK (3 << 5)

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
  VT_EX_TENSOR, VT_EX_DMA,
  VT_EX_COUNT
} vt_exec_class;

/* The operation an instruction performs (vt/isa_sems.def). */
typedef enum vt_sem {
#define SEM_OP(name, doc) VT_SEM_##name,
#include "vt/isa_sems.def"
#undef SEM_OP
  VT_SEM_COUNT
} vt_sem;

/* Latency class for the timing model: the unit's own latency, or one of the
 * FPU's classes (uarch.md 2.2). */
typedef enum vt_lat {
  VT_LAT_UNIT, VT_LAT_FADD, VT_LAT_FMUL, VT_LAT_FMA, VT_LAT_FMISC, VT_LAT_FCVT, VT_LAT_COUNT
} vt_lat;

/* Element-width rule of a vector instruction: the widths of vd, vs2 and vs1
 * relative to vtype's SEW. */
typedef enum vt_ew {
  VT_EW_NONE,   /* not an element-wise vector instruction */
  VT_EW_SEW,    /* every operand SEW wide */
  VT_EW_WIDE,   /* vd (and a reduction's scalar) 2*SEW; vs2, vs1 SEW */
  VT_EW_WIDE_W, /* vd and vs2 2*SEW; vs1 SEW (.wv/.wx/.wf) */
  VT_EW_NARROW, /* vs2 2*SEW; vd and vs1 SEW */
  VT_EW_VF2, VT_EW_VF4, VT_EW_VF8, /* vs2 SEW/2, SEW/4, SEW/8 */
  VT_EW_MASK,   /* mask-register layout: one bit per element, SEW-independent */
  VT_EW_WHOLE1, VT_EW_WHOLE2, VT_EW_WHOLE4, VT_EW_WHOLE8, /* whole registers */
  VT_EW_LANE,   /* Ventus per-lane 32-bit values, whatever vtype says */
  VT_EW_HALF_IN,  /* vs2: a 16-bit value in bits 15:0 of each 32-bit lane; vd 32 bits
                   * (isa2025.md 3.2.4; legal at SEW 32 only) */
  VT_EW_HALF_OUT, /* vs2 32 bits; vd: a 16-bit result sign-extended into the lane */
  VT_EW_LANESEL,  /* VOP64 (isa2025.md 3.8): SEW-wide values in 32-bit lanes, OPSEL
                   * picks byte 0/2 or half 0/1 at SEW 8/16; pairs at SEW 64 */
  VT_EW_COUNT
} vt_ew;

/* Memory access of an instruction. */
/* COPY: an asynchronous global -> local copy of the DMA family (isa2025.md
 * 3.9); its size column is the copy size of cp_dma (4, 8, 16) and the
 * 16-byte granule of the other copies */
typedef enum vt_mem_kind { VT_MEM_NONE, VT_MEM_LOAD, VT_MEM_STORE, VT_MEM_AMO, VT_MEM_COPY } vt_mem_kind;
typedef enum vt_amode {
  VT_AM_NONE,
  VT_AM_BASE,    /* x[rs1] + imm, once per warp */
  VT_AM_VUNIT,   /* RVV unit stride from x[rs1] */
  VT_AM_VUNITFF, /* RVV unit stride, fault-only-first */
  VT_AM_VSTRIDE, /* RVV stride x[rs2] */
  VT_AM_VINDEX,  /* RVV indexed by vs2 */
  VT_AM_VWHOLE,  /* RVV whole registers */
  VT_AM_VMASK,   /* RVV mask load/store (ceil(vl/8) bytes) */
  VT_AM_FLAT,    /* Ventus per lane: vs1[i] + imm (isa.md 2.8.1) */
  VT_AM_PRIVATE, /* Ventus private mapping (spec README decision 9) */
  VT_AM_BASE64,  /* XP(rs1) + imm: 64-bit pair address, >= 2^32 faults (isa2025.md 3.1.3) */
  VT_AM_GLOBAL,  /* per lane: CSR gds + vs1[i] + imm, checked against gds_limit (3.3) */
  VT_AM_LOCAL,   /* per lane: CSR lds + vs1[i] + imm, checked against lds_limit (3.3) */
  VT_AM_FLAT64,  /* per lane: VP(vs1, i) + imm, a 64-bit pair address (3.4) */
  VT_AM_DMA,     /* once per warp: absolute addresses in x registers, global source
                  * within gds..gds_limit, local destination within CSR_LDS..lds_limit
                  * (3.9, D35) */
  VT_AM_COUNT
} vt_amode;

/* Flags of an instruction row. */
enum {
  VT_F_SA = 1u << 0,      /* operand A (rs1 / vs2) is signed */
  VT_F_SB = 1u << 1,      /* operand B (rs2 / imm / vs1 / scalar) is signed */
  VT_F_REV = 1u << 2,     /* B op A instead of A op B */
  VT_F_NEGP = 1u << 3,    /* multiply-add: negated product */
  VT_F_NEGC = 1u << 4,    /* multiply-add: negated addend */
  VT_F_MADD = 1u << 5,    /* multiply-add: vd is the multiplicand, vs2 the addend */
  VT_F_RED = 1u << 6,     /* reduction into element 0 */
  VT_F_MASKW = 1u << 7,   /* writes packed mask bits */
  VT_F_V0 = 1u << 8,      /* reads v0 as carry or select (vm = 0 is not a mask) */
  VT_F_NOSIMT = 1u << 9,  /* ignores the SIMT mask (isa.md 1.4) */
  VT_F_FP = 1u << 10,     /* floating point: needs mstatus.FS, uses frm (flw/fsw: FP
                           * loads/stores, which PREFIX_MEMORY cannot modify) */
  VT_F_RTZ = 1u << 11,    /* rounds toward zero whatever frm says */
  VT_F_FSCALAR = 1u << 12, /* the scalar operand of a .vf form: never register-extended */
  VT_F_RVD = 1u << 13,    /* reads vd as a source */
  VT_F_CTRL = 1u << 14,   /* may change the pc */
  VT_F_PRD = 1u << 16,    /* rd is a register pair (v2025) */
  VT_F_PRS1 = 1u << 17,   /* rs1 is a register pair */
  VT_F_PRS2 = 1u << 18,   /* rs2 is a register pair */
  VT_F_PRS3 = 1u << 19,   /* rs3 is a register pair */
  VT_F_W = 1u << 20,      /* RV64 W-form: 32-bit result sign-extended into the rd pair */
  VT_F_VILL = 1u << 21,   /* illegal while vtype.vill is set, loads included (isa2025.md D25) */
  VT_F_BF16 = 1u << 22,   /* the 16-bit format is bfloat16, not binary16 */
  VT_F_SUPERSET = 1u << 23, /* a declared superset: words that also match a more
                             * specific row are that row (isa2025.md 2.6) */
  /* derived by the table generator from the operand list */
  VT_F_VEC = 1u << 24,    /* has vector register operands */
  VT_F_BX = 1u << 25,     /* operand B is a scalar register (rs1 of .vx/.vf, rs2 of R-type) */
  VT_F_BI = 1u << 26      /* operand B is an immediate */
};

typedef enum vt_insn_id {
#define INSN(id, ...) VT_INSN_##id,
#include "vt/isa_insns.def"
#include "vt/isa_insns_v2025.def"
#undef INSN
  VT_INSN_COUNT,
  VT_INSN_INVALID = 0xffff
} vt_insn_id;

/* Syntax templates: literal characters, with each operand encoded as one
 * byte VT_TMPL_OP + operand id. */
#define VT_TMPL_OP 0x80
#define VT_MAX_OPERANDS 8

/* Instructions are 32 or 64 bits long (isa2025.md D1): a first parcel with
 * bits 6:0 = 0x3f starts a 64-bit instruction, whose second parcel holds bits
 * 63:32. 32-bit rows have match and mask below 2^32. */
typedef struct vt_insn_desc {
  const char *mnemonic;
  uint64_t match, mask;
  uint8_t length;     /* bytes: 4 or 8 */
  uint8_t exec_class; /* vt_exec_class: the functional unit */
  uint8_t lat;        /* vt_lat */
  uint16_t sem;       /* vt_sem: the operation */
  uint8_t ew;         /* vt_ew */
  uint8_t mem;        /* vt_mem_kind */
  uint8_t amode;      /* vt_amode */
  uint8_t msize;      /* bytes per element access (memory rows) */
  uint32_t flags;     /* VT_F_* */
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
const char *vt_sem_name(vt_sem s);

/* Instructions and aliases whose mnemonic is 'name' (case-sensitive).
 * Fill up to 'max' ids; return how many exist. */
size_t vt_isa_find_insns(const char *name, size_t len, uint16_t *ids, size_t max);
size_t vt_isa_find_aliases(const char *name, size_t len, uint16_t *idx, size_t max);

/* --- decoding and encoding --- */
/* Length in bytes (4 or 8) of the instruction whose first parcel is 'first'
 * (isa2025.md D1: 8 when bits 6:0 are 0x3f). */
unsigned vt_insn_length(uint32_t first);
/* The 32-bit instruction encoded by 'word', or VT_INSN_INVALID (also for a
 * first parcel of a 64-bit instruction). */
vt_insn_id vt_decode(uint32_t word);
/* The 64-bit instruction 'insn' (first parcel in bits 31:0), or
 * VT_INSN_INVALID. */
vt_insn_id vt_decode64(uint64_t insn);

/* Whether every register field that row 'id' marks as a register pair
 * (VT_F_PRD/PRS1/PRS2/PRS3: the fields at bits 11:7, 19:15, 24:20, 31:27)
 * holds an even number in 'insn' (isa2025.md D9), and every register-group
 * operand (VT_OPF_G2/G4/G8) starts at an even register and ends at or below
 * v255 (isa2025.md 3.6.4). */
bool vt_insn_pairs_even(vt_insn_id id, uint64_t insn);
/* Registers in the group an operand names: 1, 2, 4 or 8 (VT_OPF_G*). */
unsigned vt_operand_group(vt_operand_id op);

/* Operand value (sign-extended and scaled as the descriptor says). */
int32_t vt_operand_get(vt_operand_id op, uint32_t word);
/* 'word' with the operand's fields replaced by 'value'. */
uint32_t vt_operand_set(vt_operand_id op, uint32_t word, int32_t value);
/* The same for the operands of 64-bit instructions (fields up to bit 63). */
int32_t vt_operand_get64(vt_operand_id op, uint64_t insn);
uint64_t vt_operand_set64(vt_operand_id op, uint64_t insn, int32_t value);
/* Whether 'value' is encodable (range, alignment). */
bool vt_operand_fits(vt_operand_id op, int64_t value);
/* Smallest and largest encodable values. */
void vt_operand_range(vt_operand_id op, int64_t *min, int64_t *max);
/* Bits of the word the operand occupies. */
uint32_t vt_operand_mask(vt_operand_id op);
uint64_t vt_operand_mask64(vt_operand_id op);

/* --- names --- */
const char *vt_xreg_name(unsigned r); /* ABI name, r < 32 */
/* Parse a register name: ABI names, xN (N < 256), and (if allow_fnames)
 * fN/ABI FP names (Zfinx convenience: f10/fa0 mean x10); vN (N < 256).
 * Returns -1 if unknown. Numbers above 31 fit only 8-bit fields (64-bit
 * instructions); callers check the field. */
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
/* The same for a 64-bit instruction (first parcel in bits 31:0). */
int vt_disasm64(uint64_t insn, uint32_t pc, const vt_disasm_opts *opts, char *buf, size_t n);

/* --- table checking (used at build time and by tests) --- */
/* Semantic columns of a table row: SEM(op, lat, ew, flags) and
 * MEM(kind, amode, size) in vt/isa_insns.def. */
typedef struct vt_raw_sem {
  int sem, lat, ew;
  uint32_t flags;
  int mem, amode, msize;
} vt_raw_sem;

typedef struct vt_raw_insn {
  const char *id, *mnemonic;
  uint64_t match, mask; /* a 64-bit row has bits 6:0 of match = 0x3f */
  int exec_class;
  const char *syntax;
  vt_raw_sem sem;
} vt_raw_insn;

/* Compile a syntax string into a template; returns 0 or -1 with a message. */
int vt_isa_compile_syntax(const char *syntax, const vt_operand_desc *ops, size_t nops,
                          char *tmpl, size_t tmpl_size, uint8_t *opids, uint8_t *nopids,
                          char *err, size_t errn);
/* Check a table: no two entries of one length overlap (unless one is a
 * declared superset, VT_F_SUPERSET, of the other), every bit is fixed or
 * belongs to an operand, operands fit the word and do not clash with fixed
 * bits, syntax names only known operands, the length rule holds (64-bit rows
 * and only they fix bits 6:0 to 0x3f). Returns the number of problems;
 * messages (one line each, naming the entries) go to err. */
int vt_isa_check_table(const vt_raw_insn *insns, size_t n, const vt_operand_desc *ops,
                       size_t nops, char *err, size_t errn);

#ifdef __cplusplus
}
#endif
#endif
