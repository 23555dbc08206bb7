/* Harness of the per-lane v2025 vector tests (SEW 64 on pairs, widening at
 * SEW 32, fp16/bf16 converts, VOP64): a run loads v8..v15 at e32 (whole
 * registers), sets mstatus.FS, frm, vxrm, fflags = 0 and a0..a3, switches to
 * the vtype under test, runs the instructions, records fflags, optionally
 * repeats one instruction per lane with only that lane active (v0.t with
 * v0 = 1 << lane) to record each lane's fflags, switches back to e32 and
 * stores v8..v15, a0..a3 and vxsat. Expected values are the caller's
 * (host integer arithmetic, MPFR). */
#ifndef VT_TEST_LANE_HARNESS_H
#define VT_TEST_LANE_HARNESS_H
#include "check.h"
#include "simprog.h"

#define LH_IN (OUT_BASE + 0x4000u)
#define LH_OUT (OUT_BASE + 0x6000u)
#define LH_X (OUT_BASE + 0x7000u)
#define LH_FL (OUT_BASE + 0x7100u)
#define E64 0xd8 /* e64, m1, ta, ma */
#define E32M1 0xd0
#define E16M1 0xc8
#define E8M1 0xc0

typedef struct lrun {
  unsigned numt;     /* threads per warp (0: 32) */
  uint32_t vtype;    /* during the instructions */
  unsigned avl;      /* 0: numt */
  unsigned frm, vxrm;
  bool fs_off;
  uint32_t x[4];     /* a0..a3 */
  uint32_t v[8][32]; /* v8..v15 before */
  uint32_t insn[64];
  unsigned n;
  uint32_t lane_op;  /* 0, or an instruction with vm = 0 run once per lane */
  /* after */
  int rc;
  vt_error err;
  uint32_t out[8][32], xo[4], fflags, vxsat, lane_flags[32];
} lrun;

static inline void lr_op(lrun *t, uint32_t w) { t->insn[t->n++] = w; }
static inline void lr_op64(lrun *t, uint64_t w) {
  lr_op(t, (uint32_t)w);
  lr_op(t, (uint32_t)(w >> 32));
}
/* 64-bit element i of the pair starting at v(8+r): before / after */
static inline void lr_set64(lrun *t, unsigned reg, unsigned i, uint64_t v) {
  t->v[reg - 8][i] = (uint32_t)v;
  t->v[reg - 8 + 1][i] = (uint32_t)(v >> 32);
}
static inline uint64_t lr_get64(const lrun *t, unsigned reg, unsigned i) {
  return (uint64_t)t->out[reg - 8 + 1][i] << 32 | t->out[reg - 8][i];
}

static inline void lr_run(lrun *t) {
  unsigned numt = t->numt ? t->numt : 32;
  prog p = {0};
  li(&p, T4, numt);
  E(&p, VT_INSN_VSETVLI, T4, T4, E32M1);
  for (unsigned r = 0; r < 8; r++) {
    li(&p, T0, LH_IN + 128 * r);
    E(&p, VT_INSN_VL1RE8, 8 + r, T0);
  }
  if (!t->fs_off) {
    li(&p, T0, 0x2000);
    E(&p, VT_INSN_CSRRS, ZERO, CSR_ADDR_MSTATUS, T0);
    E(&p, VT_INSN_CSRRWI, ZERO, 0x002, (int)t->frm);
    E(&p, VT_INSN_CSRRWI, ZERO, 0x001, 0);
  }
  E(&p, VT_INSN_CSRRWI, ZERO, 0x00a, (int)t->vxrm);
  for (unsigned k = 0; k < 4; k++) li(&p, A0 + k, t->x[k]);
  li(&p, T5, t->avl ? t->avl : numt);
  E(&p, VT_INSN_VSETVLI, T4, T5, (int)t->vtype);
  for (unsigned k = 0; k < t->n; k++) emit(&p, t->insn[k]);
  li(&p, T6, LH_X);
  if (!t->fs_off) {
    E(&p, VT_INSN_CSRRS, T1, 0x001, ZERO);
    E(&p, VT_INSN_SW, T1, 16, T6);
  }
  if (t->lane_op)
    for (unsigned k = 0; k < numt; k++) {
      li(&p, T0, 1u << k);
      E(&p, VT_INSN_VMV_V_X, 0, T0);
      E(&p, VT_INSN_CSRRWI, ZERO, 0x001, 0);
      emit(&p, t->lane_op);
      E(&p, VT_INSN_CSRRS, T1, 0x001, ZERO);
      li(&p, T0, LH_FL + 4 * k);
      E(&p, VT_INSN_SW, T1, 0, T0);
    }
  for (unsigned k = 0; k < 4; k++) E(&p, VT_INSN_SW, A0 + k, 4 * (int)k, T6);
  E(&p, VT_INSN_CSRRS, T1, 0x009, ZERO);
  E(&p, VT_INSN_SW, T1, 20, T6);
  li(&p, T4, numt);
  E(&p, VT_INSN_VSETVLI, T4, T4, E32M1);
  for (unsigned r = 0; r < 8; r++) {
    li(&p, T0, LH_OUT + 128 * r);
    E(&p, VT_INSN_VS1R_V, 8 + r, T0);
  }
  emit(&p, WORD_ENDPRG);
  vt_device *dev = vt_device_new(NULL);
  if (!dev) abort();
  t->rc = load_prog(dev, &p);
  for (unsigned r = 0; r < 8 && t->rc == VT_OK; r++)
    t->rc = vt_mem_write(dev, LH_IN + 128 * r, t->v[r], 4 * numt, &t->err);
  vt_launch l = simple_launch(numt, 1);
  if (t->rc == VT_OK) t->rc = vt_device_run(dev, &l, NULL, &t->err);
  if (t->rc == VT_OK) {
    for (unsigned r = 0; r < 8; r++)
      for (unsigned i = 0; i < numt; i++) t->out[r][i] = rd32(dev, LH_OUT + 128 * r + 4 * i);
    for (unsigned k = 0; k < 4; k++) t->xo[k] = rd32(dev, LH_X + 4 * k);
    t->fflags = t->fs_off ? 0 : rd32(dev, LH_X + 16);
    t->vxsat = rd32(dev, LH_X + 20);
    for (unsigned k = 0; k < numt && t->lane_op; k++) t->lane_flags[k] = rd32(dev, LH_FL + 4 * k);
  }
  vt_device_free(dev);
}

static inline void lr_ok(check_state *st, const lrun *t, int line) {
  if (t->rc != VT_OK) {
    st->failed_checks++;
    fprintf(stderr, "line %d: run failed: %s\n", line, t->err.message);
  }
}
#define LR_OK(st, t) lr_ok(st, t, __LINE__)

/* the run stopped with an illegal instruction whose reason ends the message */
static inline void lr_illegal(check_state *st, const lrun *t, const char *reason, int line) {
  size_t n = strlen(t->err.message), k = strlen(reason);
  if (t->rc != VT_ERR_ILLEGAL || n < k || strcmp(t->err.message + n - k, reason) != 0) {
    st->failed_checks++;
    fprintf(stderr, "line %d: rc %d \"%s\", expected illegal \"...%s\"\n", line, t->rc,
            t->err.message, reason);
  }
}
#define LR_ILLEGAL(st, t, reason) lr_illegal(st, t, reason, __LINE__)

static inline uint64_t lr_rand(uint64_t *s) {
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return *s;
}
#endif
