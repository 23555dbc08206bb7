/* Integer vector arithmetic at SEW = 8 and 16 (exec_vector_sew.c): the
 * generic element path next to the SEW = 32 lane loops of exec_vector.c. */
#ifndef VT_SIM_EXEC_VECTOR_SEW_H
#define VT_SIM_EXEC_VECTOR_SEW_H
#include "exec_util.h"

#define MAXG 8 /* registers of a destination group (EMUL <= 8) */

/* Element access in the packed layout (exec_vector_sew.c, exec_vector_fp16.c). */
typedef struct vctx {
  vt_warp *w;
  unsigned rbytes;        /* bytes per register: VLEN/8 = 4*numt */
  unsigned rd;
  uint32_t touched[MAXG]; /* written 32-bit lanes per register of vd's group */
} vctx;

/* element i (eew bits, zero-extended) of the group starting at reg */
static inline uint32_t get(const vctx *c, unsigned reg, unsigned i, unsigned eew) {
  unsigned o = i * (eew / 8), r = reg + o / c->rbytes;
  if (r >= VT_NUM_VREGS) return 0;
  return load_le((const uint8_t *)c->w->v[r] + o % c->rbytes, eew / 8);
}
/* element i of vd's group (elements never straddle registers: 4*numt is a
 * multiple of the element size) */
static inline void put(vctx *c, unsigned i, unsigned eew, uint32_t v) {
  unsigned o = i * (eew / 8), k = o / c->rbytes, r = c->rd + k;
  if (r >= VT_NUM_VREGS || k >= MAXG) return;
  o %= c->rbytes;
  store_le((uint8_t *)c->w->v[r] + o, v, eew / 8);
  c->touched[k] |= 1u << (o / 4);
}
static inline void trace_group(vt_device *dev, const vctx *c) {
  for (unsigned k = 0; k < MAXG && c->rd + k < VT_NUM_VREGS; k++)
    if (k == 0 || c->touched[k]) trace_v(dev, c->w, c->rd + k, c->touched[k]);
}

/* Executes vector instruction 'in' with vtype's SEW = 8 or 16. m: the
 * active elements (SIMT mask, [vstart, vl), v0 when vm = 0); rmask: the
 * elements in [vstart, vl) below numt (for the instructions that ignore the
 * SIMT mask). Does not reset vstart. */
int vt_exec_vector_sew(vt_device *dev, vt_warp *w, vt_insn *in, uint32_t m, uint32_t rmask,
                       vt_error *err);

/* Vector FP at SEW = 16 (binary16) and the FP widening/narrowing
 * instructions from SEW 8/16 (exec_vector_fp16.c); same arguments. */
int vt_exec_vector_fp16(vt_device *dev, vt_warp *w, vt_insn *in, uint32_t m, uint32_t rmask,
                        vt_error *err);

/* Fixed point (RVV 1.0 3.8): rounding increment for shifting v right by d
 * bits under vxrm, and the averaging add/subtract result. */
static inline uint64_t vt_round_inc(unsigned vxrm, uint64_t v, unsigned d) {
  if (d == 0) return 0;
  uint64_t lsb = (v >> d) & 1, half = (v >> (d - 1)) & 1;
  uint64_t rest = d >= 2 ? (v & ((1ull << (d - 1)) - 1)) != 0 : 0;
  switch (vxrm & 3) {
  case 0: return half;                       /* rnu */
  case 1: return half & (rest | lsb);        /* rne */
  case 2: return 0;                          /* rdn */
  default: return (lsb ^ 1) & (half | rest); /* rod */
  }
}
static inline uint32_t vt_avg(unsigned vxrm, int64_t s) {
  return (uint32_t)((s >> 1) + (int64_t)vt_round_inc(vxrm, (uint64_t)s, 1));
}
#endif
