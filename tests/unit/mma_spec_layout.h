/* The MMA fragment layouts written from the text of isa2025.md 4.3, 4.5
 * and 4.6 for the tests (independent of src/tensor/mma_layout.c). */
#ifndef VT_TEST_MMA_SPEC_LAYOUT_H
#define VT_TEST_MMA_SPEC_LAYOUT_H
#include "mma_forms.h"

static void set_rc(int *row, int *col, int r, int c) {
  *row = r;
  *col = c;
}

/* The element of (r, lane, j), or 0 when the slot holds none: written from
 * the text of section 4 (op 0 = A, 1 = B, 2 = C/D). */
static int spec_elem(const tform *F, int cd16, int al, int bl, int op, int r, int lane, int j,
                     int *row, int *col) {
  const int g = lane / 4, q = lane % 4;
  if (F->type == VT_MMA_F16 && F->shape == 2) { /* 4.6 */
    if (op == 0) set_rc(row, col, g, 2 * q + j);
    else if (op == 1 && g >= 4) return 0;
    else if (op == 1) set_rc(row, col, 2 * q + j, g);
    else if (cd16 && q >= 2) return 0;
    else if (cd16) set_rc(row, col, g, 2 * q + j);
    else set_rc(row, col, g, q);
    return 1;
  }
  const int e = 32 / F->bits, RM = F->m / 8, RK = F->k / (4 * e);
  const int RMa = F->m / (4 * e), RNb = F->n / (4 * e);
  if (op == 0 && !al) set_rc(row, col, g + 8 * (r % RM), e * q + j + 4 * e * (r / RM));
  else if (op == 0) set_rc(row, col, e * q + j + 4 * e * (r % RMa), g + 8 * (r / RMa));
  else if (op == 1 && !bl) set_rc(row, col, e * q + j + 4 * e * (r % RK), g + 8 * (r / RK));
  else if (op == 1) set_rc(row, col, g + 8 * (r / RNb), e * q + j + 4 * e * (r % RNb));
  else if (cd16) set_rc(row, col, g + 8 * (r % RM), 2 * q + j + 8 * (r / RM));
  else set_rc(row, col, g + 8 * ((r / 2) % RM), 2 * q + (r % 2) + 8 * (r / (2 * RM)));
  return 1;
}

#endif
