/* The legal MMA/MMA64 combinations and register counts, written out from
 * isa2025.md 3.6.2 and the table of 4.4 for the MMA tests (independent of
 * src/tensor/mma_form.c's tables). */
#ifndef VT_TEST_MMA_FORMS_H
#define VT_TEST_MMA_FORMS_H
#include "tensor/mma_form.h" /* the DT codes only */

typedef struct tform {
  vt_mma_type type;
  const char *tname;
  int shape; /* SHAPE code */
  const char *sname;
  int m, n, k;
  int f16_cd;     /* f16 C/D allowed (CT = 0) besides the 32-bit C/D (CT = 1) */
  int na, nb;     /* A and B registers */
  int nc16, nc32; /* C/D registers for f16 and for f32/s32 C/D */
  int mma64_only;
  int bits; /* container size s (4.1) */
} tform;

static const tform TFORMS[] = {
    {VT_MMA_F16, "f16", 0, "m8n8k8", 8, 8, 8, 1, 1, 1, 1, 2, 0, 16},
    {VT_MMA_F16, "f16", 1, "m16n8k8", 16, 8, 8, 1, 2, 1, 2, 4, 0, 16},
    {VT_MMA_F16, "f16", 2, "m8n4k8", 8, 4, 8, 1, 1, 1, 1, 1, 0, 16},
    {VT_MMA_F16, "f16", 3, "m16n8k16", 16, 8, 16, 1, 4, 2, 2, 4, 0, 16},
    {VT_MMA_BF16, "bf16", 0, "m8n8k8", 8, 8, 8, 0, 1, 1, 0, 2, 0, 16},
    {VT_MMA_BF16, "bf16", 1, "m16n8k8", 16, 8, 8, 0, 2, 1, 0, 4, 0, 16},
    {VT_MMA_BF16, "bf16", 3, "m16n8k16", 16, 8, 16, 0, 4, 2, 0, 4, 0, 16},
    {VT_MMA_F32, "f32", 0, "m8n8k8", 8, 8, 8, 0, 2, 2, 0, 2, 0, 32},
    {VT_MMA_F32, "f32", 1, "m16n8k8", 16, 8, 8, 0, 4, 2, 0, 4, 0, 32},
    {VT_MMA_F32, "f32", 3, "m16n8k16", 16, 8, 16, 0, 8, 4, 0, 4, 0, 32},
    {VT_MMA_E4M3, "e4m3", 3, "m16n8k32", 16, 8, 32, 0, 4, 2, 0, 4, 0, 8},
    {VT_MMA_E5M2, "e5m2", 3, "m16n8k32", 16, 8, 32, 0, 4, 2, 0, 4, 0, 8},
    {VT_MMA_S8, "s8", 0, "m8n8k16", 8, 8, 16, 0, 1, 1, 0, 2, 0, 8},
    {VT_MMA_S8, "s8", 2, "m16n16k16", 16, 16, 16, 0, 2, 2, 0, 8, 0, 8},
    {VT_MMA_U8, "u8", 0, "m8n8k16", 8, 8, 16, 0, 1, 1, 0, 2, 0, 8},
    {VT_MMA_U8, "u8", 2, "m16n16k16", 16, 16, 16, 0, 2, 2, 0, 8, 0, 8},
    {VT_MMA_S4, "s4", 0, "m8n8k32", 8, 8, 32, 0, 1, 1, 0, 2, 0, 4},
    {VT_MMA_S4, "s4", 1, "m16n8k32", 16, 8, 32, 0, 2, 1, 0, 4, 0, 4},
    {VT_MMA_S4, "s4", 3, "m16n8k64", 16, 8, 64, 0, 4, 2, 0, 4, 0, 4},
    {VT_MMA_U4, "u4", 0, "m8n8k32", 8, 8, 32, 0, 1, 1, 0, 2, 0, 4},
    {VT_MMA_U4, "u4", 1, "m16n8k32", 16, 8, 32, 0, 2, 1, 0, 4, 0, 4},
    {VT_MMA_U4, "u4", 3, "m16n8k64", 16, 8, 64, 0, 4, 2, 0, 4, 0, 4},
    {VT_MMA_B1AND, "b1and", 0, "m8n8k128", 8, 8, 128, 0, 1, 1, 0, 2, 0, 1},
    {VT_MMA_B1XOR, "b1xor", 0, "m8n8k128", 8, 8, 128, 0, 1, 1, 0, 2, 0, 1},
    {VT_MMA_E3M2, "e3m2", 3, "m16n8k32", 16, 8, 32, 0, 4, 2, 0, 4, 1, 8},
    {VT_MMA_E2M3, "e2m3", 3, "m16n8k32", 16, 8, 32, 0, 4, 2, 0, 4, 1, 8},
    {VT_MMA_E2M1, "e2m1", 3, "m16n8k32", 16, 8, 32, 0, 4, 2, 0, 4, 1, 8},
    {VT_MMA_E3M0, "e3m0", 3, "m16n8k32", 16, 8, 32, 0, 4, 2, 0, 4, 1, 8},
};
#define N_TFORMS (sizeof TFORMS / sizeof TFORMS[0])

static inline int tform_is_int(const tform *f) { return f->type >= VT_MMA_S8 && f->type <= VT_MMA_B1XOR; }
/* MMA64 AL = 1 / BL = 1: 16- and 32-bit types, not m8n4k8 (4.5, D33) */
static inline int tform_transposable(const tform *f) {
  return (f->bits == 16 || f->bits == 32) && !(f->type == VT_MMA_F16 && f->shape == 2);
}

#endif
