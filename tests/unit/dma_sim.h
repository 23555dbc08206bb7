/* Running one asynchronous copy (isa2025.md 3.9) on the functional
 * simulator for the tests: the workgroup's local memory is filled with a
 * marker byte, the range CSRs are set, the copy runs with its operands in
 * a0 (rs3, destination), a1 (rs1, source) and a2 (rs2, size), the tensor
 * descriptor in lanes of v8 (vs1) and v9 (vs2), then cp_dma_mbarrier, and a
 * window of local memory is copied word by word to global memory and read
 * back. Instruction words come from the bit layout of 3.9.1. */
#ifndef VT_TEST_DMA_SIM_H
#define VT_TEST_DMA_SIM_H
#include "simprog.h"

#define DMA_SRC 0x90100000u   /* source data mapped here */
#define DMA_SRC_SIZE 0x40000u
#define DMA_DESC 0x9000c000u  /* descriptor lane words (in the OUT buffer) */
#define DMA_MARK 0xa5u

/* 3.9.1: funct7 | rs2 | rs1 | funct3 | rs3 | 1000001 */
static inline uint32_t enc_dma(unsigned f7, unsigned rs2, unsigned rs1, unsigned f3, unsigned rs3) {
  return f7 << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | rs3 << 7 | 0x41u;
}
#define DMA_CP(size) enc_dma((size) == 4 ? 0 : (size) == 8 ? 1 : 2, A2, A1, 0, A0)
#define DMA_BULK enc_dma(0, A2, A1, 1, A0)
#define DMA_TENSOR enc_dma(0, 9, 8, 3, A0)
#define DMA_WAIT 0x00004041u

typedef struct dma_sim {
  uint32_t insn;              /* the copy */
  uint32_t dst, src, n;       /* a0, a1, a2 */
  uint32_t T[13], U[15];      /* descriptor lanes of v8 and v9 */
  int set_csrs;               /* write gds, gds_limit, lds_limit */
  uint32_t gds, gds_limit, lds_limit;
  uint32_t win, win_len;      /* local window dumped (multiple of 4, <= 48 KiB) */
  unsigned threads;           /* 0: 32 */
  uint8_t *image;             /* DMA_SRC_SIZE bytes written at DMA_SRC */
  /* result */
  uint8_t out[0xc000];
  int rc;
  vt_error err;
} dma_sim;

/* for (t2 = count; t2; t2--) { store or copy a word, t0 += 4, t1 += 4 } */
static inline void dma_sim_loop(prog *p, uint32_t from, uint32_t to, uint32_t count, int fill) {
  if (!count) return;
  li(p, T0, from);
  li(p, T1, to);
  li(p, T2, count);
  li(p, T3, 0xa5a5a5a5u);
  unsigned top = here(p);
  if (!fill) E(p, VT_INSN_LW, T3, 0, T0);
  E(p, VT_INSN_SW, T3, 0, T1);
  E(p, VT_INSN_ADDI, T0, T0, 4);
  E(p, VT_INSN_ADDI, T1, T1, 4);
  E(p, VT_INSN_ADDI, T2, T2, -1);
  unsigned br = E(p, VT_INSN_BNE, T2, ZERO, 0);
  patch_branch(p, br, top);
}

static inline void dma_sim_program(const dma_sim *s, prog *p) {
  dma_sim_loop(p, 0, s->win, s->win_len / 4, 1);
  if (s->set_csrs) {
    li(p, T0, s->gds);
    E(p, VT_INSN_CSRRW, ZERO, 0x810, T0);
    li(p, T0, s->gds_limit);
    E(p, VT_INSN_CSRRW, ZERO, 0x811, T0);
    li(p, T0, s->lds_limit);
    E(p, VT_INSN_CSRRW, ZERO, 0x812, T0);
  }
  vsetup(p);
  E(p, VT_INSN_VID_V, 5, 1);
  E(p, VT_INSN_VSLL_VI, 5, 5, 2, 1);
  li(p, T0, DMA_DESC);
  E(p, VT_INSN_VADD_VX, 1, 5, T0, 1);
  E(p, VT_INSN_VLW12_V, 8, 0, 1);
  E(p, VT_INSN_VLW12_V, 9, 128, 1);
  li(p, A0, s->dst);
  li(p, A1, s->src);
  li(p, A2, s->n);
  emit(p, s->insn);
  emit(p, DMA_WAIT);
  dma_sim_loop(p, s->win, OUT_BASE, s->win_len / 4, 0);
  emit(p, WORD_ENDPRG);
}

static inline int dma_sim_run(dma_sim *s) {
  prog *p = calloc(1, sizeof *p);
  vt_device *dev = vt_device_new(NULL);
  if (!p || !dev) abort();
  dma_sim_program(s, p);
  vt_launch l = simple_launch(s->threads ? s->threads : 32, 1);
  l.lds_size = 0x10000;
  memset(&s->err, 0, sizeof s->err);
  s->rc = load_prog(dev, p);
  if (s->rc == VT_OK) s->rc = vt_mem_map(dev, DMA_SRC, DMA_SRC_SIZE, &s->err);
  if (s->rc == VT_OK && s->image) s->rc = vt_mem_write(dev, DMA_SRC, s->image, DMA_SRC_SIZE, &s->err);
  uint32_t desc[64] = {0};
  for (int k = 0; k < 13; k++) desc[k] = s->T[k];
  for (int k = 0; k < 15; k++) desc[32 + k] = s->U[k];
  if (s->rc == VT_OK) s->rc = vt_mem_write(dev, DMA_DESC, desc, sizeof desc, &s->err);
  if (s->rc == VT_OK) s->rc = vt_device_run(dev, &l, NULL, &s->err);
  memset(s->out, 0xee, sizeof s->out);
  if (s->rc == VT_OK && s->win_len)
    s->rc = vt_mem_read(dev, OUT_BASE, s->out, s->win_len, &s->err);
  vt_device_free(dev);
  free(p);
  return s->rc;
}
#endif
