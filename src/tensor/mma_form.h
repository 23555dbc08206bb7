/* MMA and MMA64 forms (isa2025.md 3.6, 3.7, 4.4; internal header): the
 * element types, the legal (type, shape, C/D type, layout) set, shapes and
 * register counts, and the decoding and checking of MMA/MMA64 words with
 * their ILLEGAL and UNSUPPORTED cases (D13, D29, D33).
 *
 * The simulator decodes a word with vt_mma_decode32/vt_mma_decode64, applies
 * register extension (MMA only), checks the warp state (numt, SIMT, FS,
 * frm), then calls vt_mma_check_groups, gathers A/B/C (mma_layout.h),
 * computes D (mma_arith.h) and scatters D. See docs/tensor.md. */
#ifndef VT_TENSOR_MMA_FORM_H
#define VT_TENSOR_MMA_FORM_H
#include <stddef.h>
#include <stdint.h>

/* A/B element types; the values are the DT codes of isa2025.md 3.6.1. */
typedef enum vt_mma_type {
  VT_MMA_F16 = 0,
  VT_MMA_BF16 = 1,
  VT_MMA_F32 = 2,
  VT_MMA_E4M3 = 3,
  VT_MMA_E5M2 = 4,
  VT_MMA_S8 = 5,
  VT_MMA_U8 = 6,
  VT_MMA_S4 = 7,
  VT_MMA_U4 = 8,
  VT_MMA_B1AND = 9,
  VT_MMA_B1XOR = 10,
  VT_MMA_E3M2 = 11, /* FP6/FP4: MMA64 only */
  VT_MMA_E2M3 = 12,
  VT_MMA_E2M1 = 13,
  VT_MMA_E3M0 = 14,
  VT_MMA_TYPE_COUNT = 15 /* DT 1111 is reserved */
} vt_mma_type;

/* C/D element types (3.6.2): f16 (CT = 0), f32 or s32 (CT = 1). */
typedef enum vt_mma_cd { VT_MMA_CD_F16, VT_MMA_CD_F32, VT_MMA_CD_S32 } vt_mma_cd;

/* Result of a check: ILLEGAL and UNSUPPORTED are both illegal-instruction
 * traps; UNSUPPORTED messages read "unsupported: <field>" (0.3, D13). */
typedef enum vt_mma_status { VT_MMA_OK = 0, VT_MMA_ILLEGAL = 1, VT_MMA_UNSUPPORTED = 2 } vt_mma_status;

/* A combination as the encodings name it. shape is the 2-bit SHAPE code
 * (its meaning depends on the type, 3.6.2); ct the CT bit; al/bl the MMA64
 * layout bits (AL = 1: A column-major, BL = 1: B row-major, 4.5), 0 in MMA. */
typedef struct vt_mma_form {
  vt_mma_type type;
  int shape, ct, al, bl;
} vt_mma_form;

/* Everything a legal form implies. */
typedef struct vt_mma_geom {
  int m, n, k;         /* A is M x K, B is K x N, C and D are M x N */
  int elem_bits;       /* A/B container size s (4.1): 32, 16, 8, 4 or 1 */
  int na, nb, nc;      /* register counts of A, B and C/D (4.4) */
  vt_mma_cd cd;        /* C/D element type */
  int is_float;        /* float A/B (needs mstatus.FS, 3.0) */
  int mma64_only;      /* FP6/FP4 types: ILLEGAL in the 32-bit MMA */
} vt_mma_geom;

/* A decoded MMA or MMA64 instruction (register fields as in the word: the
 * 32-bit MMA's are 5-bit numbers before register extension). */
typedef struct vt_mma_op {
  vt_mma_form form;
  int is64;                  /* MMA64 */
  unsigned vd, vs1, vs2, vs3; /* D, A, B, C; MMA: vs3 = vd (vd names C and D) */
  int relu;                  /* MMA RELU bit; always 0 in MMA64 */
  int sat;                   /* integer C/D: saturate (MMA S bit, MMA64 RD = 00) */
  int rm;                    /* float: VT_RM_* of MMA64's RD; VT_MMA_RM_FRM for MMA */
} vt_mma_op;
#define VT_MMA_RM_FRM (-1) /* MMA rounds with frm (3.6.4; frm 5-7 are ILLEGAL) */

/* Lower-case names of the syntax ("f16", "e4m3", "b1xor"; "f16", "f32",
 * "s32"); "?" for a value out of range. */
const char *vt_mma_type_name(vt_mma_type t);
const char *vt_mma_cd_name(vt_mma_cd cd);
/* The shape name ("m16n8k16") of a type's SHAPE code, or NULL when the
 * type has no such shape. */
const char *vt_mma_shape_name(vt_mma_type t, int shape);

/* Fills *g for a legal form of MMA (mma64 = 0) or MMA64 (mma64 = 1);
 * otherwise returns VT_MMA_ILLEGAL with a reason in msg (may be NULL). */
vt_mma_status vt_mma_form_geom(const vt_mma_form *f, int mma64, vt_mma_geom *g, char *msg,
                               size_t msz);

/* Decodes a 32-bit MMA word (major opcode 0x61, 3.6.1). Checks the opcode,
 * funct3 = 1xx, the DT/SHAPE/CT combination (3.6.2) and S (integer types
 * only). Register groups are checked by vt_mma_check_groups after
 * register extension. */
vt_mma_status vt_mma_decode32(uint32_t word, vt_mma_op *op, char *msg, size_t msz);

/* Decodes a 64-bit MMA64 word (low parcel in bits 31:0, 3.7.1) and makes the
 * checks of 3.7.3 that depend only on the word, in its order: reserved bits,
 * shape bit 59 and the combination (ILLEGAL); wg, a, SP (UNSUPPORTED, D13);
 * integer RD 10/11 (ILLEGAL, D33). */
vt_mma_status vt_mma_decode64(uint64_t word, vt_mma_op *op, char *msg, size_t msz);

/* The register-group checks of 3.6.4/3.7.3 for a decoded op (registers
 * after extension): a group of two or more registers starts at an even
 * register and ends at or below v255 (checked for D, C, A, B in that
 * order). */
vt_mma_status vt_mma_check_groups(const vt_mma_op *op, char *msg, size_t msz);

#endif
