/* MMA fragment layouts: isa2025.md 4.3 (A row-major, B column-major, C/D),
 * 4.5 (MMA64 AL = 1 / BL = 1) and 4.6 (the upstream m8n4k8 layout), with
 * lane L = 4g + q and slot j = bits s*j+s-1 .. s*j of the lane word (4.1). */
#include "tensor/mma_layout.h"

static int is_m8n4k8(const vt_mma_form *f) { return f->type == VT_MMA_F16 && f->shape == 2; }

int vt_mma_slots(const vt_mma_geom *g, vt_mma_operand op) {
  if (op == VT_MMA_OPD_C) return g->cd == VT_MMA_CD_F16 ? 2 : 1;
  return 32 / g->elem_bits;
}

int vt_mma_regs(const vt_mma_geom *g, vt_mma_operand op) {
  return op == VT_MMA_OPD_A ? g->na : op == VT_MMA_OPD_B ? g->nb : g->nc;
}

void vt_mma_dims(const vt_mma_geom *g, vt_mma_operand op, int *rows, int *cols) {
  *rows = op == VT_MMA_OPD_B ? g->k : g->m;
  *cols = op == VT_MMA_OPD_A ? g->k : g->n;
}

/* 4.6: one register per operand. */
static int m8n4k8_elem(const vt_mma_geom *g, vt_mma_operand op, int gi, int q, int j, int *row,
                       int *col) {
  switch (op) {
  case VT_MMA_OPD_A:
    *row = gi;
    *col = 2 * q + j;
    return 1;
  case VT_MMA_OPD_B:
    if (gi >= 4) return 0; /* lanes 16-31 are not read */
    *row = 2 * q + j;
    *col = gi;
    return 1;
  default:
    if (g->cd == VT_MMA_CD_F16) {
      if (q >= 2) return 0;
      *row = gi;
      *col = 2 * q + j;
    } else {
      *row = gi;
      *col = q;
    }
    return 1;
  }
}

int vt_mma_frag_elem(const vt_mma_form *f, const vt_mma_geom *g, vt_mma_operand op, int r,
                     int lane, int j, int *row, int *col) {
  if (r < 0 || r >= vt_mma_regs(g, op) || lane < 0 || lane >= 32 || j < 0 ||
      j >= vt_mma_slots(g, op))
    return 0;
  const int gi = lane >> 2, q = lane & 3, e = 32 / g->elem_bits;
  if (is_m8n4k8(f)) return m8n4k8_elem(g, op, gi, q, j, row, col);
  const int rm = g->m / 8;
  switch (op) {
  case VT_MMA_OPD_A:
    if (!f->al) {
      *row = gi + 8 * (r % rm);
      *col = e * q + j + 4 * e * (r / rm);
    } else { /* 4.5: A column-major */
      int rma = g->m / (4 * e);
      *row = e * q + j + 4 * e * (r % rma);
      *col = gi + 8 * (r / rma);
    }
    return 1;
  case VT_MMA_OPD_B:
    if (!f->bl) {
      int rk = g->k / (4 * e);
      *row = e * q + j + 4 * e * (r % rk);
      *col = gi + 8 * (r / rk);
    } else { /* 4.5: B row-major */
      int rnb = g->n / (4 * e);
      *row = gi + 8 * (r / rnb);
      *col = e * q + j + 4 * e * (r % rnb);
    }
    return 1;
  default:
    if (g->cd == VT_MMA_CD_F16) {
      *row = gi + 8 * (r % rm);
      *col = 2 * q + j + 8 * (r / rm);
    } else {
      *row = gi + 8 * ((r / 2) % rm);
      *col = 2 * q + (r % 2) + 8 * (r / (2 * rm));
    }
    return 1;
  }
}

static int slot_bits(const vt_mma_geom *g, vt_mma_operand op) { return 32 / vt_mma_slots(g, op); }

void vt_mma_gather(const vt_mma_form *f, const vt_mma_geom *g, vt_mma_operand op,
                   const uint32_t *regs, uint32_t *elems) {
  const int nr = vt_mma_regs(g, op), ns = vt_mma_slots(g, op), sb = slot_bits(g, op);
  const uint32_t mask = sb == 32 ? 0xffffffffu : (1u << sb) - 1;
  int rows, cols;
  vt_mma_dims(g, op, &rows, &cols);
  for (int r = 0; r < nr; r++)
    for (int lane = 0; lane < 32; lane++)
      for (int j = 0; j < ns; j++) {
        int row, col;
        if (vt_mma_frag_elem(f, g, op, r, lane, j, &row, &col))
          elems[row * cols + col] = (regs[r * 32 + lane] >> (sb * j)) & mask;
      }
}

void vt_mma_scatter_d(const vt_mma_form *f, const vt_mma_geom *g, const uint32_t *d,
                      uint32_t *regs) {
  const int nr = g->nc, ns = vt_mma_slots(g, VT_MMA_OPD_C), sb = slot_bits(g, VT_MMA_OPD_C);
  const uint32_t mask = sb == 32 ? 0xffffffffu : (1u << sb) - 1;
  for (int r = 0; r < nr; r++)
    for (int lane = 0; lane < 32; lane++) {
      uint32_t w = 0;
      for (int j = 0; j < ns; j++) {
        int row, col;
        if (vt_mma_frag_elem(f, g, VT_MMA_OPD_C, r, lane, j, &row, &col))
          w |= (d[row * g->n + col] & mask) << (sb * j);
      }
      regs[r * 32 + lane] = w;
    }
}
