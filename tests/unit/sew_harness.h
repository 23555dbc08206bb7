/* The harness of the SEW 8/16 simulator tests (test_sim_sew.c,
 * test_sim_fp16.c): each run preloads v0..v8 from memory (whole-register
 * loads), sets a0..a3, vxrm and (unless fs_off) mstatus.FS, frm and
 * fflags = 0, may narrow the SIMT mask with a vector branch, sets vtype/vl,
 * runs the instructions under test, and stores v0..v8, vxsat, a0 and
 * fflags. Every byte of v0..v8 that a test does not expect to change is
 * checked unchanged (FINISH). Include once per test program. */
#ifndef VT_TEST_SEW_HARNESS_H
#define VT_TEST_SEW_HARNESS_H
#include <stdbool.h>

#include "check.h"
#include "simprog.h"

#define E8 0xc0  /* e8, m1, ta, ma */
#define E16 0xc8 /* e16, m1 */
#define E32 0xd0 /* e32, m1 */
#define M2 1     /* | M2: LMUL = 2 */
#define NV 9     /* v0..v8 */
#define VB 128   /* bytes of a register buffer (numt <= 32) */
#define IN_BASE (OUT_BASE + 0x4000)
#define CSR_VXSAT 0x009
#define CSR_VXRM 0x00a
#define CSR_FFLAGS 0x001
#define CSR_FRM 0x002

typedef struct sewt {
  unsigned numt;   /* threads per warp: VLEN = 32 * numt */
  unsigned active; /* only lanes below 'active' run the instructions (0: all) */
  uint32_t vtype;
  unsigned avl, vxrm;
  uint32_t x[4];     /* a0..a3 */
  uint8_t v[NV][VB]; /* v0..v8 before */
  uint32_t insn[8];
  unsigned n;
  /* after */
  int rc;
  vt_error err;
  uint8_t out[NV][VB];
  uint8_t cov[NV][VB]; /* bytes some expectation covered */
  uint32_t vxsat, a0;
  unsigned frm;   /* frm before the instructions (FP tests) */
  bool fs_off;    /* leave mstatus.FS Off */
  uint32_t fflags; /* after (0 when fs_off) */
} sewt;

static sewt *sewt_new(unsigned numt, uint32_t vtype, unsigned avl) {
  sewt *t = calloc(1, sizeof *t);
  if (!t) abort();
  t->numt = numt;
  t->vtype = vtype;
  t->avl = avl;
  for (unsigned r = 0; r < NV; r++)
    for (unsigned b = 0; b < VB; b++) t->v[r][b] = (uint8_t)(0x5a + 37 * r + 11 * b);
  return t;
}
static void op(sewt *t, uint32_t word) { t->insn[t->n++] = word; }

/* element i (eew bits) of the register group starting at reg */
static uint8_t *eaddr(uint8_t (*v)[VB], unsigned numt, unsigned reg, unsigned eew, unsigned i) {
  unsigned o = i * eew / 8, rb = 4 * numt;
  if (reg + o / rb >= NV) abort();
  return &v[reg + o / rb][o % rb];
}
static void setv(sewt *t, unsigned reg, unsigned eew, const uint32_t *vals, unsigned n) {
  for (unsigned i = 0; i < n; i++) {
    uint8_t *p = eaddr(t->v, t->numt, reg, eew, i);
    for (unsigned k = 0; k < eew / 8; k++) p[k] = (uint8_t)(vals[i] >> (8 * k));
  }
}
static uint32_t elem(uint8_t (*v)[VB], unsigned numt, unsigned reg, unsigned eew, unsigned i) {
  const uint8_t *p = eaddr(v, numt, reg, eew, i);
  uint32_t x = 0;
  for (unsigned k = 0; k < eew / 8; k++) x |= (uint32_t)p[k] << (8 * k);
  return x;
}

static void run(sewt *t) {
  prog p = {0};
  vsetup(&p);
  for (unsigned r = 0; r < NV; r++) {
    li(&p, T0, IN_BASE + r * VB);
    E(&p, VT_INSN_VL1RE8, r, T0);
  }
  if (!t->fs_off) {
    li(&p, T0, 0x2000); /* mstatus.FS = Initial: FP instructions reach their checks */
    E(&p, VT_INSN_CSRRS, ZERO, CSR_ADDR_MSTATUS, T0);
    E(&p, VT_INSN_CSRRWI, ZERO, CSR_FRM, (int)t->frm);
    E(&p, VT_INSN_CSRRWI, ZERO, CSR_FFLAGS, 0);
  }
  for (unsigned k = 0; k < 4; k++) li(&p, A0 + k, t->x[k]);
  E(&p, VT_INSN_CSRRWI, ZERO, CSR_VXRM, (int)t->vxrm);
  E(&p, VT_INSN_CSRRWI, ZERO, CSR_VXSAT, 0);
  unsigned br = 0, rpc = 0;
  if (t->active) { /* lanes >= active branch straight to the join */
    E(&p, VT_INSN_VID_V, 31, 1);
    li(&p, T1, t->active);
    E(&p, VT_INSN_VMV_V_X, 30, T1);
    rpc = setrpc_placeholder(&p);
    br = E(&p, VT_INSN_VBGE, 31, 30, 0);
  }
  li(&p, T5, t->avl);
  E(&p, VT_INSN_VSETVLI, T4, T5, (int)t->vtype);
  for (unsigned k = 0; k < t->n; k++) emit(&p, t->insn[k]);
  if (t->active) {
    unsigned j = emit(&p, WORD_JOIN);
    patch_branch(&p, br, j);
    patch_rpc(&p, rpc, j);
  }
  for (unsigned r = 0; r < NV; r++) {
    li(&p, T0, OUT_BASE + r * VB);
    E(&p, VT_INSN_VS1R_V, r, T0);
  }
  csrr(&p, T1, CSR_VXSAT);
  li(&p, T0, OUT_BASE + 0x2000);
  E(&p, VT_INSN_SW, T1, 0, T0);
  E(&p, VT_INSN_SW, A0, 4, T0);
  if (!t->fs_off) {
    csrr(&p, T1, CSR_FFLAGS);
    E(&p, VT_INSN_SW, T1, 8, T0);
  }
  emit(&p, WORD_ENDPRG);

  vt_device *dev = vt_device_new(NULL);
  if (!dev) abort();
  t->rc = load_prog(dev, &p);
  if (t->rc == VT_OK) t->rc = vt_mem_write(dev, IN_BASE, t->v, sizeof t->v, &t->err);
  vt_launch l = simple_launch(t->numt, 1);
  if (t->rc == VT_OK) t->rc = vt_device_run(dev, &l, NULL, &t->err);
  if (t->rc == VT_OK) {
    for (unsigned r = 0; r < NV; r++)
      if (vt_mem_read(dev, OUT_BASE + r * VB, t->out[r], 4 * t->numt, &t->err) != VT_OK) abort();
    t->vxsat = rd32(dev, OUT_BASE + 0x2000);
    t->a0 = rd32(dev, OUT_BASE + 0x2004);
    t->fflags = t->fs_off ? 0 : rd32(dev, OUT_BASE + 0x2008);
  }
  vt_device_free(dev);
}

/* Elements 0..n-1 of the group at reg: want[i] where bit i of 'act' is
 * set, the old value elsewhere. */
static void expect_m(check_state *st, sewt *t, unsigned reg, unsigned eew, const uint32_t *want,
                     unsigned n, uint32_t act, int line) {
  if (t->rc != VT_OK) return;
  for (unsigned i = 0; i < n; i++) {
    uint32_t got = elem(t->out, t->numt, reg, eew, i);
    uint32_t w = ((act >> i) & 1) ? want[i] : elem(t->v, t->numt, reg, eew, i);
    if (got != w) {
      st->failed_checks++;
      fprintf(stderr, "line %d: v%u element %u (e%u) = 0x%x, expected 0x%x%s\n", line, reg, i, eew,
              got, w, ((act >> i) & 1) ? "" : " (unchanged)");
    }
    uint8_t *c = eaddr(t->cov, t->numt, reg, eew, i);
    memset(c, 1, eew / 8);
  }
}
#define EXPECT(t, reg, eew, ...)                                                         \
  expect_m(st, t, reg, eew, (const uint32_t[]){__VA_ARGS__},                            \
           sizeof((const uint32_t[]){__VA_ARGS__}) / sizeof(uint32_t), 0xffffffffu, __LINE__)
#define EXPECT_M(t, reg, eew, act, ...)                                                  \
  expect_m(st, t, reg, eew, (const uint32_t[]){__VA_ARGS__},                            \
           sizeof((const uint32_t[]){__VA_ARGS__}) / sizeof(uint32_t), act, __LINE__)
#define SETV(t, reg, eew, ...)                                                           \
  setv(t, reg, eew, (const uint32_t[]){__VA_ARGS__},                                    \
       sizeof((const uint32_t[]){__VA_ARGS__}) / sizeof(uint32_t))

/* the run succeeded and every byte no expectation covered is unchanged */
static void finish(check_state *st, sewt *t, int line) {
  if (t->rc != VT_OK) {
    st->failed_checks++;
    fprintf(stderr, "line %d: run failed: %s\n", line, t->err.message);
  } else {
    for (unsigned r = 0; r < NV; r++)
      for (unsigned b = 0; b < 4 * t->numt; b++)
        if (!t->cov[r][b] && t->out[r][b] != t->v[r][b]) {
          st->failed_checks++;
          fprintf(stderr, "line %d: v%u byte %u changed: 0x%02x -> 0x%02x\n", line, r, b,
                  t->v[r][b], t->out[r][b]);
        }
  }
  free(t);
}
#define FINISH(t) finish(st, t, __LINE__)

/* the run stopped with an illegal-instruction error mentioning 'what' */
static void expect_error(check_state *st, sewt *t, const char *what, int line) {
  if (t->rc != VT_ERR_ILLEGAL || !strstr(t->err.message, what)) {
    st->failed_checks++;
    fprintf(stderr, "line %d: rc %d, message \"%s\", expected an illegal-instruction error with \"%s\"\n",
            line, t->rc, t->rc == VT_OK ? "" : t->err.message, what);
  }
  free(t);
}
#define EXPECT_ERROR(t, what) expect_error(st, t, what, __LINE__)

#endif
