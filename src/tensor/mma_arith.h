/* MMA arithmetic (isa2025.md 4.2, 4.7, 4.8, D30, C25; internal header):
 * the element formats decoded exactly and D = A x B + C computed element by
 * element with an exact dot product, order-independent and bit-reproducible.
 *
 * Element values are container values in the low bits of a uint32_t as in
 * mma_layout.h (f16/bf16: 16 bits; FP8, s8, u8: 8 bits; FP6: bits 5:0 and
 * FP4: bits 3:0 of the byte, higher bits ignored (C22); s4/u4: 4 bits; b1:
 * bit 0). f16 C/D values are binary16 in the low 16 bits (results have the
 * upper 16 bits clear); f32 C/D binary32; s32 C/D two's complement. No
 * fflags are produced (D29). Pure functions, no state. docs/tensor.md. */
#ifndef VT_TENSOR_MMA_ARITH_H
#define VT_TENSOR_MMA_ARITH_H
#include <stddef.h>
#include <stdint.h>

#include "tensor/mma_form.h"

/* An exactly decoded float element: (-1)^sign * sig * 2^exp when cls is
 * FINITE (sig != 0); sig = 0 for ZERO. */
typedef enum vt_mma_class { VT_MMA_ZERO, VT_MMA_FINITE, VT_MMA_INF, VT_MMA_NAN } vt_mma_class;
typedef struct vt_mma_fval {
  vt_mma_class cls;
  uint32_t sign, sig;
  int exp;
} vt_mma_fval;

/* Decodes a float element of type t (4.2; f16, bf16, f32, FP8, FP6, FP4).
 * Returns 0, or -1 when t is not a float type. */
int vt_mma_decode_float(vt_mma_type t, uint32_t bits, vt_mma_fval *v);
/* Decodes an integer element (s8, u8, s4, u4 as integers; b1: bit 0). */
int32_t vt_mma_decode_int(vt_mma_type t, uint32_t bits);

/* The largest K of a legal form (b1 m8n8k128). */
#define VT_MMA_MAX_K 128

/* One D element (4.7 / 4.8): the dot product of a[0], a[a_stride], ...
 * (K elements of a row of A) and b[0], b[b_stride], ... (a column of B)
 * plus c. rm: VT_RM_RNE..VT_RM_RMM (float types); sat: saturate integer
 * results (else wrap); relu: the MMA RELU bit (applied last). Returns 0
 * when (t, cd) is not a pair of 3.6.2, k is not 0..VT_MMA_MAX_K or rm is
 * not 0..4 (float types). */
uint32_t vt_mma_dot(vt_mma_type t, vt_mma_cd cd, int k, const uint32_t *a, size_t a_stride,
                    const uint32_t *b, size_t b_stride, uint32_t c, int rm, int sat, int relu);

/* The whole tile: d[m*N+n] = dot(row m of A, column n of B, c[m*N+n]) for a
 * legal MMA or MMA64 form (the layout bits do not matter here; element
 * arrays as in mma_layout.h). d may be c (each element reads its C before
 * writing its D). Returns 0, or -1 with a message for an illegal form or a
 * rounding mode outside 0..4 for a float type. */
int vt_mma_compute(const vt_mma_form *f, const uint32_t *a, const uint32_t *b, const uint32_t *c,
                   uint32_t *d, int rm, int sat, int relu, char *msg, size_t msz);

#endif
