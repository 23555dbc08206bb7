/* Running one MMA/MMA64 instruction on the functional simulator for the
 * tests: the A, B and C register groups are loaded from memory (vlw12.v,
 * with a regext where a register is above v31), the instruction runs in a
 * 32-lane warp (or the warp shape a test asks for), and the D group is
 * stored back (vsw12.v) and read. Instruction words are built here from the
 * bit layouts of isa2025.md 3.6.1 and 3.7.1; the expected D comes from the
 * test's own layouts (mma_spec_layout.h) and reference (mma_ref.h). */
#ifndef VT_TEST_MMA_SIM_H
#define VT_TEST_MMA_SIM_H
#include "mma_ref.h"
#include "mma_spec_layout.h"
#include "simprog.h"

/* 3.6.1: DT 31:28 | RELU 27 | SHAPE 26:25 | vs2 | vs1 | 1 S CT | vd | 0x61 */
static inline uint32_t enc_mma32(unsigned dt, unsigned relu, unsigned shape, unsigned vs2,
                                 unsigned vs1, unsigned s, unsigned ct, unsigned vd) {
  return dt << 28 | relu << 27 | shape << 25 | (vs2 & 31) << 20 | (vs1 & 31) << 15 | 1u << 14 |
         s << 13 | ct << 12 | (vd & 31) << 7 | 0x61u;
}
/* 3.7.1 (rd: RD field; al, bl: layouts) */
static inline uint64_t enc_mma64(unsigned dt, unsigned shape, unsigned vs2, unsigned vs1,
                                 unsigned al, unsigned bl, unsigned ct, unsigned vs3, unsigned vd,
                                 unsigned rd) {
  return (uint64_t)dt << 60 | (uint64_t)shape << 57 | (uint64_t)vs2 << 49 | (uint64_t)vs1 << 41 |
         (uint64_t)al << 40 | (uint64_t)bl << 39 | (uint64_t)ct << 38 |
         (uint64_t)(vs3 >> 4) << 32 | (uint64_t)(vs3 & 15) << 28 | (uint64_t)vd << 20 |
         (uint64_t)rd << 18 | 0x3fu;
}

/* One run. Fill the request fields, call mma_sim_run; D and rc/err come back. */
typedef struct mma_sim {
  /* request */
  const tform *F;
  int cd16, al, bl, relu, sat, is64;
  int rnd;            /* MMA: the frm value; MMA64: the RD field */
  unsigned a_reg, b_reg, c_reg, d_reg; /* d_reg = c_reg for MMA */
  uint32_t A[8][32], B[4][32], C[8][32]; /* register contents, [register][lane] */
  unsigned threads, items;  /* warp width (0: 32) and work-items (0: all lanes) */
  int fs_off, prefix64;     /* mstatus.FS left Off; a regext right before an MMA64 */
  uint64_t raw;             /* non-zero: execute this word (length raw_len) instead */
  unsigned raw_len;
  /* result */
  uint32_t D[8][32];
  uint32_t fflags; /* after the instruction (MMA never changes it, D29) */
  int rc;
  vt_error err;
} mma_sim;

static inline int mma_sim_nc(const mma_sim *s) { return s->cd16 ? s->F->nc16 : s->F->nc32; }

#define MMA_SIM_IN 0x90000000u /* register r of the memory image at IN + 128 * r */

/* vlw12.v/vsw12.v of register 'reg' at memory slot 'slot' (bases v1..v3
 * cover slots 0..47); a regext when reg > 31 (vd ext[2:0], store data ext[8:6]) */
static inline void mma_sim_move(prog *p, unsigned reg, unsigned slot, int store) {
  if (reg > 31) emit(p, ((reg >> 5) << (store ? 6 : 0)) << 20 | 0x200bu);
  int base = 1 + (int)(slot / 16), off = (int)(128 * (slot % 16));
  if (store)
    E(p, VT_INSN_VSW12_V, (int)(reg & 31), off, base);
  else
    E(p, VT_INSN_VLW12_V, (int)(reg & 31), off, base);
}

static inline uint64_t mma_sim_word(const mma_sim *s, unsigned *len) {
  const tform *F = s->F;
  if (s->raw) {
    *len = s->raw_len;
    return s->raw;
  }
  if (s->is64) {
    *len = 8;
    return enc_mma64(F->type, (unsigned)F->shape, s->b_reg, s->a_reg, (unsigned)s->al,
                     (unsigned)s->bl, !s->cd16, s->c_reg, s->d_reg, (unsigned)s->rnd);
  }
  *len = 4;
  return enc_mma32(F->type, (unsigned)s->relu, (unsigned)F->shape, s->b_reg, s->a_reg,
                   (unsigned)s->sat, !s->cd16, s->c_reg);
}

static inline void mma_sim_program(const mma_sim *s, prog *p) {
  const tform *F = s->F;
  li(p, T0, 0x2000); /* mstatus.FS = Initial (README 6: FP needs FS != Off) */
  if (!s->fs_off) E(p, VT_INSN_CSRRS, ZERO, CSR_ADDR_MSTATUS, T0);
  if (!s->is64) E(p, VT_INSN_CSRRWI, ZERO, 0x002, s->rnd & 7); /* frm */
  vsetup(p);
  E(p, VT_INSN_VID_V, 5, 1);
  E(p, VT_INSN_VSLL_VI, 5, 5, 2, 1);
  for (int b = 0; b < 3; b++) {
    li(p, T0, MMA_SIM_IN + 2048u * (unsigned)b);
    E(p, VT_INSN_VADD_VX, 1 + b, 5, T0, 1);
  }
  for (int r = 0; r < F->na; r++) mma_sim_move(p, s->a_reg + (unsigned)r, (unsigned)r, 0);
  for (int r = 0; r < F->nb; r++) mma_sim_move(p, s->b_reg + (unsigned)r, 8u + (unsigned)r, 0);
  for (int r = 0; r < mma_sim_nc(s); r++) mma_sim_move(p, s->c_reg + (unsigned)r, 16u + (unsigned)r, 0);
  unsigned len;
  uint64_t w = mma_sim_word(s, &len);
  if (len == 4 && !s->raw && (s->a_reg | s->b_reg | s->c_reg) > 31)
    emit(p, ((s->c_reg >> 5) | (s->a_reg >> 5) << 3 | (s->b_reg >> 5) << 6) << 20 | 0x200bu);
  if (s->prefix64) emit(p, 0x0000200bu); /* regext zero, zero, 0 */
  emit(p, (uint32_t)w);
  if (len == 8) emit(p, (uint32_t)(w >> 32));
  for (int r = 0; r < mma_sim_nc(s); r++) mma_sim_move(p, s->d_reg + (unsigned)r, 32u + (unsigned)r, 1);
  E(p, VT_INSN_CSRRS, T1, 0x001, ZERO); /* csrr t1, fflags */
  li(p, T2, MMA_SIM_IN + 48 * 128);
  E(p, VT_INSN_SW, T1, 0, T2);
  emit(p, WORD_ENDPRG);
}

static inline int mma_sim_run(mma_sim *s) {
  prog *p = calloc(1, sizeof *p);
  vt_device *dev = vt_device_new(NULL);
  if (!p || !dev) abort();
  mma_sim_program(s, p);
  vt_launch l = simple_launch(s->threads ? s->threads : 32, 1);
  l.wg_threads = s->items;
  memset(&s->err, 0, sizeof s->err);
  s->rc = load_prog(dev, p);
  if (s->rc == VT_OK) {
    uint32_t img[24][32];
    memcpy(img[0], s->A, sizeof s->A);
    memcpy(img[8], s->B, sizeof s->B);
    memset(img[12], 0, 4 * sizeof img[0]);
    memcpy(img[16], s->C, sizeof s->C);
    s->rc = vt_mem_write(dev, MMA_SIM_IN, img, sizeof img, &s->err);
  }
  if (s->rc == VT_OK) s->rc = vt_device_run(dev, &l, NULL, &s->err);
  memset(s->D, 0xee, sizeof s->D);
  if (s->rc == VT_OK) s->rc = vt_mem_read(dev, MMA_SIM_IN + 32 * 128, s->D, sizeof s->D, &s->err);
  s->fflags = 0xdead;
  if (s->rc == VT_OK) s->rc = vt_mem_read(dev, MMA_SIM_IN + 48 * 128, &s->fflags, 4, &s->err);
  vt_device_free(dev);
  free(p);
  return s->rc;
}

/* --- the expected D: elements gathered with the spec layouts, the reference
 * tile, D scattered with the spec layout (slots without an element: 0) --- */

static inline uint32_t mma_slot(uint32_t word, int bits, int j) {
  return bits == 32 ? word : (word >> (bits * j)) & ((1u << bits) - 1u);
}

/* elements of operand op (0 A, 1 B, 2 C) as a row-major array */
static inline void mma_sim_gather(const mma_sim *s, int op, const uint32_t (*regs)[32], int nregs,
                                  uint32_t *out) {
  const tform *F = s->F;
  int bits = op == 2 ? (s->cd16 ? 16 : 32) : F->bits, cols = op == 0 ? F->k : F->n;
  for (int r = 0; r < nregs; r++)
    for (int lane = 0; lane < 32; lane++)
      for (int j = 0; j < 32 / bits; j++) {
        int row, col;
        if (spec_elem(F, s->cd16, s->al, s->bl, op, r, lane, j, &row, &col))
          out[row * cols + col] = mma_slot(regs[r][lane], bits, j);
      }
}

static inline int ref_rm(const mma_sim *s) {
  /* MMA64 RD 00 rn 01 rz 10 rm 11 rp; frm 0..4: RNE RTZ RDN RUP RMM (mma_ref.h order) */
  return s->rnd;
}

static inline void mma_sim_expect(const mma_sim *s, uint32_t exp[8][32]) {
  const tform *F = s->F;
  static uint32_t A[1024], B[1024], C[256];
  memset(A, 0, sizeof A);
  memset(B, 0, sizeof B);
  memset(C, 0, sizeof C);
  int nc = mma_sim_nc(s);
  mma_sim_gather(s, 0, s->A, F->na, A);
  mma_sim_gather(s, 1, s->B, F->nb, B);
  mma_sim_gather(s, 2, s->C, nc, C);
  int relu = s->is64 ? 0 : s->relu;
  int sat = s->is64 ? s->rnd == 0 : s->sat;
  memset(exp, 0, 8 * 32 * sizeof(uint32_t));
  int bits = s->cd16 ? 16 : 32;
  for (int r = 0; r < nc; r++)
    for (int lane = 0; lane < 32; lane++)
      for (int j = 0; j < 32 / bits; j++) {
        int m, n;
        if (!spec_elem(F, s->cd16, s->al, s->bl, 2, r, lane, j, &m, &n)) continue;
        uint32_t d = ref_elem(F->type, s->cd16, F->k, F->n, A, B, m, n, C[m * F->n + n],
                              ref_rm(s), sat, relu);
        exp[r][lane] |= bits == 32 ? d : (d & 0xffffu) << (16 * j);
      }
}
#endif
