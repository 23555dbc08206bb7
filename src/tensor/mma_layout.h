/* MMA fragment layouts (isa2025.md 4.1, 4.3, 4.5, 4.6; internal header):
 * which matrix element each (register, lane, slot) of an operand's register
 * group holds, and the gather/scatter between register groups and element
 * arrays that the simulator uses around vt_mma_compute (mma_arith.h).
 *
 * Register groups are arrays of 32-bit lane words: word regs[r * 32 + L] is
 * lane L of register r of the group (r = 0 is the group's first register).
 * Element arrays are row-major: A[m * K + k], B[k * N + n], C/D[m * N + n];
 * each element is its container value (4.1) in the low bits of a uint32_t
 * (f16: 16 bits, s4: 4 bits, b1: 1 bit; FP6/FP4: the whole byte). */
#ifndef VT_TENSOR_MMA_LAYOUT_H
#define VT_TENSOR_MMA_LAYOUT_H
#include <stdint.h>

#include "tensor/mma_form.h"

typedef enum vt_mma_operand { VT_MMA_OPD_A, VT_MMA_OPD_B, VT_MMA_OPD_C } vt_mma_operand;
/* VT_MMA_OPD_C names both C and D (same layout). */

/* Elements per 32-bit lane word of the operand: 32 / s for A and B, 2 for
 * f16 C/D, 1 for f32/s32 C/D. */
int vt_mma_slots(const vt_mma_geom *g, vt_mma_operand op);
/* Registers in the operand's group (na, nb or nc). */
int vt_mma_regs(const vt_mma_geom *g, vt_mma_operand op);
/* Rows and columns of the operand's matrix. */
void vt_mma_dims(const vt_mma_geom *g, vt_mma_operand op, int *rows, int *cols);

/* The element (row, col) held by slot `slot` of register `reg` in lane
 * `lane` (4.3, 4.5 with the form's AL/BL, 4.6 for m8n4k8). Returns 1 and
 * sets *row and *col, or 0 when that slot holds no element (m8n4k8: B in lanes
 * 16-31, f16 C/D in lanes with q >= 2) or the arguments are out of range.
 * f must be legal (vt_mma_form_geom filled g from it). */
int vt_mma_frag_elem(const vt_mma_form *f, const vt_mma_geom *g, vt_mma_operand op, int reg,
                     int lane, int slot, int *row, int *col);

/* Reads an operand's register group into its element array (every element
 * is written; slots outside the layout are not read). */
void vt_mma_gather(const vt_mma_form *f, const vt_mma_geom *g, vt_mma_operand op,
                   const uint32_t *regs, uint32_t *elems);

/* Writes D (elements d[m * N + n], the low 16 or 32 bits used) into every
 * lane word of the nc registers of the D group; slots that hold no element
 * are written as 0 (4.6: m8n4k8 f16 D in lanes with q >= 2). */
void vt_mma_scatter_d(const vt_mma_form *f, const vt_mma_geom *g, const uint32_t *d,
                      uint32_t *regs);

#endif
